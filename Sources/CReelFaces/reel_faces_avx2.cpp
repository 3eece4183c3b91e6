// dlib's HOG face detector compiled a second time for CPUs with AVX2 and FMA, chosen at run time.
//
// Debian's dlib headers pick their SIMD code (simd4f/simd8f in the HOG features and the
// separable filters) from the compiler's target, and the package builds for baseline x86-64
// (SSE2). Built for AVX2 the same search takes 4.0-4.5 ms instead of 6.0-6.3 ms at 480x270.
// SwiftPM takes no per-file target flags from a package others depend on, so:
//  - the standard library comes in first, untouched, so none of its inline functions take the
//    AVX2 target (the linker could otherwise keep such a copy for everyone);
//  - every function declared after the pragma below is compiled for AVX2 and FMA;
//  - dlib's namespace is renamed in this file, so none of its templates instantiated here can
//    stand in for the baseline ones of reel_faces.cpp;
//  - the detector is handed over as dlib's serialized bytes, the only thing both sides share.
// Nothing here runs unless the CPU reports AVX2 and FMA.

#include "hog_avx2.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <exception>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iosfwd>
#include <iostream>
#include <istream>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <ostream>
#include <queue>
#include <random>
#include <set>
#include <sstream>
#include <stack>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <valarray>
#include <vector>

#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#define DLIB_HAVE_SSE2
#define DLIB_HAVE_SSE3
#define DLIB_HAVE_SSE41
#define DLIB_HAVE_AVX
#define dlib reel_dlib_avx2
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>
#include <dlib/serialize.h>

namespace reel_faces {

struct avx2_detector {
    reel_dlib_avx2::frontal_face_detector detector;
};

}  // namespace reel_faces

namespace {

void load(reel_faces::avx2_detector &made, const std::string &serialized) {
    std::istringstream input(serialized);
    reel_dlib_avx2::deserialize(made.detector, input);
}

void detect(reel_faces::avx2_detector &detector, const uint8_t *gray, int width, int height, int stride,
            std::vector<std::array<double, 5>> &found) {
    reel_dlib_avx2::array2d<unsigned char> picture(height, width);
    for (int row = 0; row < height; ++row) {
        std::memcpy(&picture[row][0], gray + static_cast<size_t>(row) * stride, static_cast<size_t>(width));
    }
    std::vector<reel_dlib_avx2::rect_detection> detections;
    detector.detector(picture, detections, 0.0);
    found.clear();
    for (const auto &detection : detections) {
        found.push_back({static_cast<double>(detection.rect.left()), static_cast<double>(detection.rect.top()),
                         static_cast<double>(detection.rect.right() + 1), static_cast<double>(detection.rect.bottom() + 1),
                         detection.detection_confidence});
    }
}

void detect_rgb(reel_faces::avx2_detector &detector, const uint8_t *rgb, int width, int height, int stride, int upsample,
                std::vector<std::array<double, 5>> &found) {
    reel_dlib_avx2::matrix<reel_dlib_avx2::rgb_pixel> picture(height, width);
    for (int row = 0; row < height; ++row) {
        std::memcpy(&picture(row, 0), rgb + static_cast<size_t>(row) * stride, static_cast<size_t>(width) * 3);
    }
    reel_dlib_avx2::pyramid_down<2> pyramid;
    const unsigned levels = static_cast<unsigned>(std::max(upsample, 0));
    for (unsigned level = 0; level < levels; ++level) reel_dlib_avx2::pyramid_up(picture, pyramid);
    std::vector<reel_dlib_avx2::rect_detection> detections;
    detector.detector(picture, detections, 0.0);
    found.clear();
    for (const auto &detection : detections) {
        reel_dlib_avx2::rectangle rect = detection.rect;
        if (levels > 0) rect = pyramid.rect_down(detection.rect, levels);
        found.push_back({static_cast<double>(rect.left()), static_cast<double>(rect.top()), static_cast<double>(rect.right() + 1),
                         static_cast<double>(rect.bottom() + 1), detection.detection_confidence});
    }
}

}  // namespace

#undef dlib
#pragma clang attribute pop

// Outside the pragma, the entry points reel_faces.cpp calls (the first runs on every CPU; the
// others only once it said yes).
namespace reel_faces {

bool avx2_available() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

avx2_detector *avx2_detector_from(const std::string &serialized) {
    auto made = std::make_unique<avx2_detector>();
    load(*made, serialized);
    return made.release();
}

avx2_detector *avx2_detector_copy(const avx2_detector &prototype) { return new avx2_detector(prototype); }

void avx2_detector_free(avx2_detector *detector) { delete detector; }

void avx2_detect(avx2_detector &detector, const uint8_t *gray, int width, int height, int stride,
                 std::vector<std::array<double, 5>> &found) {
    detect(detector, gray, width, height, stride, found);
}

void avx2_detect_rgb(avx2_detector &detector, const uint8_t *rgb, int width, int height, int stride, int upsample,
                     std::vector<std::array<double, 5>> &found) {
    detect_rgb(detector, rgb, width, height, stride, upsample, found);
}

}  // namespace reel_faces
