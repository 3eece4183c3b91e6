#include "reel_faces.h"
#include "hog_avx2.h"
#include "shape_predictor_reader.h"
#include "shim_support.h"

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unistd.h>
#include <exception>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using reel_faces::valid_picture;
using reel_faces::write_error;

// The layers of dlib_face_recognition_resnet_model_v1.dat, a 29-layer ResNet taking 150x150
// face chips to 128 numbers. Deserializing checks this structure against the file.
template <template <int, template <typename> class, int, typename> class Block, int Filters,
          template <typename> class Norm, typename Input>
using residual = dlib::add_prev1<Block<Filters, Norm, 1, dlib::tag1<Input>>>;

template <template <int, template <typename> class, int, typename> class Block, int Filters,
          template <typename> class Norm, typename Input>
using residual_down =
    dlib::add_prev2<dlib::avg_pool<2, 2, 2, 2, dlib::skip1<dlib::tag2<Block<Filters, Norm, 2, dlib::tag1<Input>>>>>>;

template <int Filters, template <typename> class Norm, int Stride, typename Input>
using conv_block = Norm<dlib::con<Filters, 3, 3, 1, 1, dlib::relu<Norm<dlib::con<Filters, 3, 3, Stride, Stride, Input>>>>>;

template <int Filters, typename Input>
using unit = dlib::relu<residual<conv_block, Filters, dlib::affine, Input>>;
template <int Filters, typename Input>
using unit_down = dlib::relu<residual_down<conv_block, Filters, dlib::affine, Input>>;

template <typename Input> using stage0 = unit_down<256, Input>;
template <typename Input> using stage1 = unit<256, unit<256, unit_down<256, Input>>>;
template <typename Input> using stage2 = unit<128, unit<128, unit_down<128, Input>>>;
template <typename Input> using stage3 = unit<64, unit<64, unit<64, unit_down<64, Input>>>>;
template <typename Input> using stage4 = unit<32, unit<32, unit<32, Input>>>;

using face_network = dlib::loss_metric<dlib::fc_no_bias<128, dlib::avg_pool_everything<
    stage0<stage1<stage2<stage3<stage4<
    dlib::max_pool<3, 3, 2, 2, dlib::relu<dlib::affine<dlib::con<32, 7, 7, 2, 2,
    dlib::input_rgb_image_sized<150>>>>>>>>>>>>>;

std::mutex cache_mutex;
std::string cache_path;

// dlib builds its HOG detector from a compressed, base64-encoded copy in its headers: about half
// a second. Its plain serialized form loads in about 3 ms, so the first process writes it to a
// cache file and later ones read that.
dlib::frontal_face_detector load_detector() {
    std::string path;
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        path = cache_path;
    }
    if (!path.empty()) {
        try {
            dlib::frontal_face_detector cached;
            dlib::deserialize(path) >> cached;
            return cached;
        } catch (...) {
            // Missing or unreadable: build it and write it again below.
        }
    }
    dlib::frontal_face_detector built = dlib::get_frontal_face_detector();
    if (!path.empty()) {
        try {
            const std::string temporary = path + ".tmp-" + std::to_string(static_cast<long>(getpid()));
            dlib::serialize(temporary) << built;
            if (std::rename(temporary.c_str(), path.c_str()) != 0) std::remove(temporary.c_str());
        } catch (...) {
            // A cache that cannot be written only costs time.
        }
    }
    return built;
}

// Each thread needs its own detector; copies of this one are cheap (under 0.1 ms).
const dlib::frontal_face_detector &detector_prototype() {
    static const dlib::frontal_face_detector prototype = load_detector();
    return prototype;
}

// The same detector built for AVX2 (hog_avx2.h), made from the prototype's serialized bytes;
// null where the CPU lacks AVX2 or FMA, or the bytes did not load.
const reel_faces::avx2_detector *avx2_prototype() {
    static const reel_faces::avx2_detector *prototype = []() -> const reel_faces::avx2_detector * {
        if (!reel_faces::avx2_available()) return nullptr;
        try {
            std::ostringstream bytes;
            dlib::serialize(detector_prototype(), bytes);
            return reel_faces::avx2_detector_from(bytes.str());
        } catch (...) {
            return nullptr;
        }
    }();
    return prototype;
}


}  // namespace

struct reel_face_engine {
    dlib::frontal_face_detector detector = detector_prototype();
    dlib::shape_predictor landmarks;
    face_network network;
};

extern "C" void reel_face_set_detector_cache(const char *path) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    if (cache_path.empty() && path != nullptr) cache_path = path;
}

extern "C" reel_face_engine *reel_face_engine_create(const char *landmarks_path, const char *recognition_path,
                                                     char *error, size_t error_size) {
    try {
        auto engine = std::make_unique<reel_face_engine>();
        reel_faces::load_shape_predictor(landmarks_path, engine->landmarks);
        dlib::deserialize(recognition_path) >> engine->network;
        return engine.release();
    } catch (const std::exception &failure) {
        write_error(error, error_size, failure.what());
    } catch (...) {
        write_error(error, error_size, "unknown error loading the face models");
    }
    return nullptr;
}

extern "C" void reel_face_engine_free(reel_face_engine *engine) { delete engine; }

namespace {

dlib::matrix<dlib::rgb_pixel> copy_picture(const uint8_t *rgb, int width, int height, int stride) {
    dlib::matrix<dlib::rgb_pixel> picture(height, width);
    for (int row = 0; row < height; ++row) {
        std::memcpy(&picture(row, 0), rgb + static_cast<size_t>(row) * stride, static_cast<size_t>(width) * 3);
    }
    return picture;
}


// A search's detections as (left, top, right, bottom, confidence), right and bottom exclusive,
// in the picture's own pixels.
using detection_list = std::vector<std::array<double, 5>>;

detection_list listed(const std::vector<dlib::rect_detection> &found) {
    detection_list detections;
    for (const auto &detection : found) {
        detections.push_back({static_cast<double>(detection.rect.left()), static_cast<double>(detection.rect.top()),
                              static_cast<double>(detection.rect.right() + 1), static_cast<double>(detection.rect.bottom() + 1),
                              detection.detection_confidence});
    }
    return detections;
}

// The baseline build's search of an 8-bit gray picture.
detection_list baseline_gray(dlib::frontal_face_detector &detector, const uint8_t *gray, int width, int height, int stride) {
    dlib::array2d<unsigned char> picture(height, width);
    for (int row = 0; row < height; ++row) {
        std::memcpy(&picture[row][0], gray + static_cast<size_t>(row) * stride, static_cast<size_t>(width));
    }
    std::vector<dlib::rect_detection> found;
    detector(picture, found, 0.0);
    return listed(found);
}

// The baseline build's search of a packed RGB picture enlarged `upsample` times first.
detection_list baseline_rgb(dlib::frontal_face_detector &detector, const uint8_t *rgb, int width, int height, int stride,
                            int upsample) {
    // The detector finds faces of about 80 pixels and up; each doubling finds half that.
    dlib::matrix<dlib::rgb_pixel> searched = copy_picture(rgb, width, height, stride);
    dlib::pyramid_down<2> pyramid;
    const unsigned levels = static_cast<unsigned>(std::max(upsample, 0));
    for (unsigned level = 0; level < levels; ++level) dlib::pyramid_up(searched, pyramid);
    std::vector<dlib::rect_detection> found;
    detector(searched, found, 0.0);
    if (levels > 0) {
        for (auto &detection : found) detection.rect = pyramid.rect_down(detection.rect, levels);
    }
    return listed(found);
}

// Runs a search (`detect` returns its detection_list) and writes what scores at least
// `minimum_score`, best first, into `boxes` (at most `capacity`, five floats each): how many
// there were, or -1 with a message in `error`. The searches' one way out.
template <typename Detect>
int write_boxes(Detect detect, double minimum_score, float *boxes, int capacity, char *error, size_t error_size) {
    try {
        detection_list detections = detect();
        std::sort(detections.begin(), detections.end(),
                  [](const std::array<double, 5> &a, const std::array<double, 5> &b) { return a[4] > b[4]; });
        int found = 0;
        for (const auto &detection : detections) {
            if (detection[4] < minimum_score) continue;
            if (found < capacity) {
                float *box = boxes + static_cast<size_t>(found) * 5;
                for (int value = 0; value < 5; ++value) box[value] = static_cast<float>(detection[value]);
            }
            ++found;
        }
        return found;
    } catch (const std::exception &failure) {
        write_error(error, error_size, failure.what());
    } catch (...) {
        write_error(error, error_size, "unknown error while finding faces");
    }
    return -1;
}

// The faces HOG finds in a packed RGB picture, by the AVX2 build when `fast` is given, written
// as `write_boxes` writes them.
int find_rgb_boxes(dlib::frontal_face_detector &detector, reel_faces::avx2_detector *fast, const uint8_t *rgb, int width,
                   int height, int stride, int upsample, double minimum_score, float *boxes, int capacity, char *error,
                   size_t error_size) {
    if (!valid_picture(rgb, width, height, stride, 3)) {
        write_error(error, error_size, "invalid picture");
        return -1;
    }
    return write_boxes([&] {
        if (fast == nullptr) return baseline_rgb(detector, rgb, width, height, stride, upsample);
        detection_list detections;
        reel_faces::avx2_detect_rgb(*fast, rgb, width, height, stride, upsample, detections);
        return detections;
    }, minimum_score, boxes, capacity, error, error_size);
}

// Landmarks, chips and descriptors for `boxes` of `picture`, written into `faces`.
void describe_faces(reel_face_engine &engine, const dlib::matrix<dlib::rgb_pixel> &picture,
                    const std::vector<dlib::rect_detection> &boxes, reel_face *faces);

}  // namespace

extern "C" int reel_face_engine_find(reel_face_engine *engine, const uint8_t *rgb, int width, int height, int stride,
                                     int upsample, double minimum_score, float *boxes, int capacity,
                                     char *error, size_t error_size) {
    if (engine == nullptr) {
        write_error(error, error_size, "no face engine");
        return -1;
    }
    return find_rgb_boxes(engine->detector, nullptr, rgb, width, height, stride, upsample, minimum_score, boxes, capacity,
                          error, error_size);
}

extern "C" int reel_face_engine_describe(reel_face_engine *engine, const uint8_t *rgb, int width, int height, int stride,
                                         const float *boxes, int count, reel_face *faces, char *error, size_t error_size) {
    if (engine == nullptr || !valid_picture(rgb, width, height, stride, 3) || count < 0 || (count > 0 && boxes == nullptr)) {
        write_error(error, error_size, "invalid picture");
        return -1;
    }
    try {
        std::vector<dlib::rect_detection> detections;
        for (int index = 0; index < count; ++index) {
            const float *box = boxes + static_cast<size_t>(index) * 5;
            dlib::rect_detection detection;
            detection.rect = dlib::rectangle(static_cast<long>(box[0]), static_cast<long>(box[1]),
                                             static_cast<long>(box[2]) - 1, static_cast<long>(box[3]) - 1);
            detection.detection_confidence = box[4];
            detections.push_back(detection);
        }
        describe_faces(*engine, copy_picture(rgb, width, height, stride), detections, faces);
        return count;
    } catch (const std::exception &failure) {
        write_error(error, error_size, failure.what());
    } catch (...) {
        write_error(error, error_size, "unknown error while describing faces");
    }
    return -1;
}

namespace {

void describe_faces(reel_face_engine &engine, const dlib::matrix<dlib::rgb_pixel> &picture,
                    const std::vector<dlib::rect_detection> &boxes, reel_face *faces) {
    std::vector<dlib::matrix<dlib::rgb_pixel>> chips;
    for (const auto &box : boxes) {
        const auto shape = engine.landmarks(picture, box.rect);
        dlib::matrix<dlib::rgb_pixel> chip;
        dlib::extract_image_chip(picture, dlib::get_face_chip_details(shape, 150, 0.25), chip);
        chips.push_back(std::move(chip));
    }
    std::vector<dlib::matrix<float, 0, 1>> descriptors;
    if (!chips.empty()) descriptors = engine.network(chips);
    for (size_t index = 0; index < boxes.size(); ++index) {
        reel_face &face = faces[index];
        face.left = static_cast<float>(boxes[index].rect.left());
        face.top = static_cast<float>(boxes[index].rect.top());
        face.right = static_cast<float>(boxes[index].rect.right() + 1);
        face.bottom = static_cast<float>(boxes[index].rect.bottom() + 1);
        face.score = static_cast<float>(boxes[index].detection_confidence);
        for (long value = 0; value < REEL_FACE_DESCRIPTOR_LENGTH; ++value) {
            face.descriptor[value] = descriptors[index](value);
        }
    }
}

}  // namespace

struct reel_face_finder {
    dlib::frontal_face_detector detector = detector_prototype();
    // The AVX2 build's copy, when the CPU runs it: gray searches go there.
    std::unique_ptr<reel_faces::avx2_detector, void (*)(reel_faces::avx2_detector *)> fast{nullptr, reel_faces::avx2_detector_free};
};

extern "C" reel_face_finder *reel_face_finder_create(char *error, size_t error_size) {
    return reel_face_finder_create_using(1, error, error_size);
}

extern "C" reel_face_finder *reel_face_finder_create_using(int vector_extensions, char *error, size_t error_size) {
    try {
        auto finder = std::make_unique<reel_face_finder>();
        if (vector_extensions != 0) {
            if (const auto *prototype = avx2_prototype()) finder->fast.reset(reel_faces::avx2_detector_copy(*prototype));
        }
        return finder.release();
    } catch (const std::exception &failure) {
        write_error(error, error_size, failure.what());
    } catch (...) {
        write_error(error, error_size, "unknown error creating the face detector");
    }
    return nullptr;
}

extern "C" int reel_face_finder_is_vectorized(const reel_face_finder *finder) {
    return finder != nullptr && finder->fast ? 1 : 0;
}

extern "C" void reel_face_finder_free(reel_face_finder *finder) { delete finder; }

extern "C" int reel_face_finder_find(reel_face_finder *finder, const uint8_t *gray, int width, int height, int stride,
                                     double minimum_score, float *boxes, int capacity, char *error, size_t error_size) {
    if (finder == nullptr || gray == nullptr || width <= 0 || height <= 0 || stride < width) {
        write_error(error, error_size, "invalid picture");
        return -1;
    }
    return write_boxes([&] {
        if (!finder->fast) return baseline_gray(finder->detector, gray, width, height, stride);
        detection_list detections;
        reel_faces::avx2_detect(*finder->fast, gray, width, height, stride, detections);
        return detections;
    }, minimum_score, boxes, capacity, error, error_size);
}

extern "C" int reel_face_finder_find_rgb(reel_face_finder *finder, const uint8_t *rgb, int width, int height, int stride,
                                         int upsample, double minimum_score, float *boxes, int capacity,
                                         char *error, size_t error_size) {
    if (finder == nullptr) {
        write_error(error, error_size, "no face finder");
        return -1;
    }
    return find_rgb_boxes(finder->detector, finder->fast.get(), rgb, width, height, stride, upsample, minimum_score, boxes,
                          capacity, error, error_size);
}
