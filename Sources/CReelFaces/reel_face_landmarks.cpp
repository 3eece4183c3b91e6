#include "reel_faces.h"
#include "shape_predictor_reader.h"
#include "shim_support.h"

// dlib's 68-point landmarks and what they say about a face: eyes open, a smile, frontalness.

#include <dlib/image_processing.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>

using reel_faces::valid_picture;
using reel_faces::write_error;

struct reel_face_landmarker {
    dlib::shape_predictor model;
};

extern "C" reel_face_landmarker *reel_face_landmarker_create(const char *path, int dlib_reader, char *error,
                                                             size_t error_size) {
    try {
        auto landmarker = std::make_unique<reel_face_landmarker>();
        if (dlib_reader != 0) {
            dlib::deserialize(path) >> landmarker->model;
        } else {
            reel_faces::load_shape_predictor(path, landmarker->model);
        }
        if (landmarker->model.num_parts() != 68) {
            write_error(error, error_size, "not a 68-point landmark model");
            return nullptr;
        }
        return landmarker.release();
    } catch (const std::exception &failure) {
        write_error(error, error_size, failure.what());
    } catch (...) {
        write_error(error, error_size, "unknown error loading the landmark model");
    }
    return nullptr;
}

extern "C" void reel_face_landmarker_free(reel_face_landmarker *landmarker) { delete landmarker; }

namespace {

struct point {
    double x, y;
};

point part(const dlib::full_object_detection &shape, unsigned long index) {
    return {static_cast<double>(shape.part(index).x()), static_cast<double>(shape.part(index).y())};
}

point mean(const dlib::full_object_detection &shape, unsigned long first, unsigned long last) {
    point total{0, 0};
    for (unsigned long index = first; index <= last; ++index) {
        total.x += shape.part(index).x();
        total.y += shape.part(index).y();
    }
    const double count = static_cast<double>(last - first + 1);
    return {total.x / count, total.y / count};
}

double distance(point a, point b) { return std::hypot(a.x - b.x, a.y - b.y); }

// The eye aspect ratio of the six points from `first` (iBUG order: corner, two upper lid
// points, corner, two lower lid points).
double eye_openness(const dlib::full_object_detection &shape, unsigned long first) {
    const double width = distance(part(shape, first), part(shape, first + 3));
    if (width <= 0) return 0;
    return (distance(part(shape, first + 1), part(shape, first + 5)) + distance(part(shape, first + 2), part(shape, first + 4)))
        / (2 * width);
}

}  // namespace

extern "C" int reel_face_landmarker_measure(const reel_face_landmarker *landmarker, const uint8_t *gray, int width,
                                            int height, int stride, const float *box,
                                            reel_face_expression *expression, char *error, size_t error_size) {
    if (landmarker == nullptr || box == nullptr || expression == nullptr || !valid_picture(gray, width, height, stride, 1)) {
        write_error(error, error_size, "invalid picture");
        return -1;
    }
    try {
        dlib::array2d<unsigned char> picture(height, width);
        for (int row = 0; row < height; ++row) {
            std::memcpy(&picture[row][0], gray + static_cast<size_t>(row) * stride, static_cast<size_t>(width));
        }
        const dlib::rectangle rect(static_cast<long>(box[0]), static_cast<long>(box[1]),
                                   static_cast<long>(box[2]) - 1, static_cast<long>(box[3]) - 1);
        const dlib::full_object_detection shape = landmarker->model(picture, rect);
        // iBUG 300-W points: jaw 0-16, nose tip 30, eyes 36-41 and 42-47 (as seen), mouth
        // corners 48 and 54, upper lip's centre 51, lower lip's centre 57, inner lips 60-67.
        const point left_eye = mean(shape, 36, 41), right_eye = mean(shape, 42, 47);
        const double eyes = distance(left_eye, right_eye);
        if (eyes <= 0) {
            write_error(error, error_size, "the landmarks collapsed");
            return -1;
        }
        // Unit vectors along the eyes' line and across it (pointing down the face).
        const point along{(right_eye.x - left_eye.x) / eyes, (right_eye.y - left_eye.y) / eyes};
        const point down{-along.y, along.x};
        auto project = [](point p, point axis) { return p.x * axis.x + p.y * axis.y; };
        expression->left_eye_openness = static_cast<float>(eye_openness(shape, 36));
        expression->right_eye_openness = static_cast<float>(eye_openness(shape, 42));
        const point corner_left = part(shape, 48), corner_right = part(shape, 54);
        expression->mouth_width = static_cast<float>(std::abs(project(corner_right, along) - project(corner_left, along)) / eyes);
        const double lips = (project(part(shape, 51), down) + project(part(shape, 57), down)) / 2;
        const double corners = (project(corner_left, down) + project(corner_right, down)) / 2;
        expression->corner_lift = static_cast<float>((lips - corners) / eyes);
        // Inner lips: 61-63 above, 67-65 below (facing pairs 61/67, 62/66, 63/65).
        const double gap = (distance(part(shape, 61), part(shape, 67)) + distance(part(shape, 62), part(shape, 66))
                            + distance(part(shape, 63), part(shape, 65))) / 3;
        expression->mouth_openness = static_cast<float>(gap / eyes);
        const double nose = project(part(shape, 30), along);
        const double jaw_left = project(part(shape, 0), along), jaw_right = project(part(shape, 16), along);
        const double span = jaw_right - jaw_left;
        const double position = span > 0 ? (nose - jaw_left) / span : 0;
        expression->frontalness = static_cast<float>(std::clamp(1 - 2 * std::abs(position - 0.5), 0.0, 1.0));
        for (unsigned long index = 0; index < 68; ++index) {
            expression->points[index * 2] = static_cast<float>(shape.part(index).x());
            expression->points[index * 2 + 1] = static_cast<float>(shape.part(index).y());
        }
        return 0;
    } catch (const std::exception &failure) {
        write_error(error, error_size, failure.what());
    } catch (...) {
        write_error(error, error_size, "unknown error placing landmarks");
    }
    return -1;
}
