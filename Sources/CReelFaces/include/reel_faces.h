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

/// A detector; NULL with a message in `error` on failure. Its searches use the detector built
/// for AVX2 and FMA where the CPU has them (the same results, about 1.4 times as fast).
reel_face_finder *reel_face_finder_create(char *error, size_t error_size);

/// `reel_face_finder_create`, with `vector_extensions` 0 keeping to the baseline build (to
/// compare the two).
reel_face_finder *reel_face_finder_create_using(int vector_extensions, char *error, size_t error_size);

/// Whether the finder searches with the AVX2 build (1) or the baseline one (0).
int reel_face_finder_is_vectorized(const reel_face_finder *finder);

/// Frees a finder (NULL is ignored).
void reel_face_finder_free(reel_face_finder *finder);

/// Finds faces in an 8-bit gray picture (`stride` bytes a row), best first, scoring at least
/// `minimum_score`. Writes at most `capacity` boxes (left, top, right, bottom, score: five
/// floats each, pixels) and returns how many were found, or -1 with a message in `error`.
int reel_face_finder_find(reel_face_finder *finder, const uint8_t *gray, int width, int height, int stride,
                          double minimum_score, float *boxes, int capacity, char *error, size_t error_size);

/// Finds faces in a packed RGB picture as `reel_face_engine_find` does, with the finder's own
/// detector: one finder per thread lets several pictures be searched at once.
int reel_face_finder_find_rgb(reel_face_finder *finder, const uint8_t *rgb, int width, int height, int stride,
                              int upsample, double minimum_score, float *boxes, int capacity,
                              char *error, size_t error_size);

/// dlib's 68-point landmark model (`shape_predictor_68_face_landmarks.dat`), for how a face
/// looks: eyes open or shut, a smile, turned to the camera or away. Safe to use from several
/// threads at once.
typedef struct reel_face_landmarker reel_face_landmarker;

/// What the 68 points of one face say. Distances are divided by the distance between the eyes'
/// centres, and measured along the line through them and across it, so a tilted head reads
/// as an upright one.
typedef struct reel_face_expression {
    /// Each eye's aspect ratio (Soukupova and Cech's EAR: the eyelids' two gaps over the eye's
    /// width): about 0.25-0.35 open, under about 0.15 shut. Left and right as seen in the picture.
    float left_eye_openness, right_eye_openness;
    /// The mouth's width, corner to corner, over the eye distance (about 0.8-0.9 at rest, wider
    /// in a smile).
    float mouth_width;
    /// How far the mouth's corners sit above the middle of the lips (upper and lower lips'
    /// centres), over the eye distance: above 0 when the corners are raised.
    float corner_lift;
    /// The gap between the inner lips (three points across the mouth, averaged), over the eye
    /// distance: near 0 closed, about 0.2-0.5 open while speaking.
    float mouth_openness;
    /// 1 when the nose tip lies midway between the jaw's sides (a face turned to the camera),
    /// towards 0 as the head turns away.
    float frontalness;
    /// The 68 points, x then y, in pixels of the picture.
    float points[136];
} reel_face_expression;

/// Loads the 68-point model; NULL with a message in `error` when it cannot be read. With
/// `dlib_reader` 0 a fast reader of dlib's format goes first (dlib's own reader is the
/// fallback); 1 uses dlib's reader alone, more than twice as slow.
reel_face_landmarker *reel_face_landmarker_create(const char *path, int dlib_reader, char *error, size_t error_size);

/// Frees a landmarker (NULL is ignored).
void reel_face_landmarker_free(reel_face_landmarker *landmarker);

/// Places the 68 points on the face in `box` (left, top, right, bottom, pixels) of an 8-bit gray
/// picture and measures them into `expression`; 0, or -1 with a message in `error`.
int reel_face_landmarker_measure(const reel_face_landmarker *landmarker, const uint8_t *gray, int width, int height,
                                 int stride, const float *box, reel_face_expression *expression,
                                 char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
