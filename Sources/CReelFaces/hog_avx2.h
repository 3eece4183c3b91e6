// The HOG face detector built for AVX2 and FMA (reel_faces_avx2.cpp), for reel_faces.cpp: only
// standard types cross, since each file has its own copy of dlib. Not part of the public header.
#ifndef REEL_FACES_HOG_AVX2_H
#define REEL_FACES_HOG_AVX2_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace reel_faces {

struct avx2_detector;

// Whether this CPU runs the AVX2 build (AVX2 and FMA).
bool avx2_available();

// A detector from dlib's serialized form of a frontal_face_detector; throws when it cannot be read.
avx2_detector *avx2_detector_from(const std::string &serialized);
// A copy of `prototype`: each thread searches with its own.
avx2_detector *avx2_detector_copy(const avx2_detector &prototype);
void avx2_detector_free(avx2_detector *detector);

// The detections in an 8-bit gray picture as (left, top, right, bottom, confidence), right and
// bottom exclusive, in dlib's order.
void avx2_detect(avx2_detector &detector, const uint8_t *gray, int width, int height, int stride,
                 std::vector<std::array<double, 5>> &found);

// The same for a packed RGB picture enlarged `upsample` times first (each doubling finds faces
// half as large), the boxes in the picture's own pixels.
void avx2_detect_rgb(avx2_detector &detector, const uint8_t *rgb, int width, int height, int stride, int upsample,
                     std::vector<std::array<double, 5>> &found);

}  // namespace reel_faces

#endif
