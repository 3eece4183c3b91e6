#ifndef REEL_FACES_H
#define REEL_FACES_H

// A plain C face engine over dlib (HOG detector, 5-point landmarks, 128-D ResNet embeddings).
// dlib's C++ exceptions never cross this boundary: every call catches them and returns an error
// code with a message.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Numbers in a face descriptor.
#define REEL_FACE_DESCRIPTOR_LENGTH 128

/// Where to keep dlib's HOG detector in its plain serialized form (loads in milliseconds instead
/// of the half second dlib takes to build it). The first call wins; call before any other.
void reel_face_set_detector_cache(const char *path);

/// Loaded models; use from one thread at a time.
typedef struct reel_face_engine reel_face_engine;

/// One detected face.
typedef struct reel_face {
    /// The face's box in pixels of the image given.
    float left, top, right, bottom;
    /// The detector's confidence (0 at its default threshold, higher is surer).
    float score;
    /// Where the face lies in dlib's embedding space; faces of one person are within about 0.6.
    float descriptor[REEL_FACE_DESCRIPTOR_LENGTH];
} reel_face;

/// Loads the landmark and recognition models; NULL and a message in `error` when they cannot
/// be read.
reel_face_engine *reel_face_engine_create(const char *landmarks_path, const char *recognition_path,
                                          char *error, size_t error_size);

/// Frees an engine (NULL is ignored).
void reel_face_engine_free(reel_face_engine *engine);

/// Finds the faces in a packed RGB picture (3 bytes a pixel, `stride` bytes a row) without
/// describing them, upsampling it `upsample` times for small faces and keeping detections
/// scoring at least `minimum_score`, best first. Writes at most `capacity` boxes (left, top,
/// right, bottom, score: five floats each, pixels) and returns how many were found (which may
/// be more), or -1 with a message in `error`.
int reel_face_engine_find(reel_face_engine *engine, const uint8_t *rgb, int width, int height, int stride,
                          int upsample, double minimum_score, float *boxes, int capacity,
                          char *error, size_t error_size);

/// Describes `count` faces of a packed RGB picture at `boxes` (five floats each, as
/// `reel_face_engine_find` writes them) into `faces`; returns `count`, or -1 with a message.
int reel_face_engine_describe(reel_face_engine *engine, const uint8_t *rgb, int width, int height, int stride,
                              const float *boxes, int count, reel_face *faces, char *error, size_t error_size);

/// dlib's HOG face detector alone (no model files): finds faces without describing them.
typedef struct reel_face_finder reel_face_finder;

/// A detector; NULL with a message in `error` on failure.
reel_face_finder *reel_face_finder_create(char *error, size_t error_size);

/// Frees a finder (NULL is ignored).
void reel_face_finder_free(reel_face_finder *finder);

/// Finds faces in an 8-bit gray picture (`stride` bytes a row), best first, scoring at least
/// `minimum_score`. Writes at most `capacity` boxes (left, top, right, bottom, score: five
/// floats each, pixels) and returns how many were found, or -1 with a message in `error`.
int reel_face_finder_find(reel_face_finder *finder, const uint8_t *gray, int width, int height, int stride,
                          double minimum_score, float *boxes, int capacity, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
