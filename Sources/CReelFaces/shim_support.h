// Helpers the C shim's files share (not part of its public header).
#ifndef REEL_FACES_SHIM_SUPPORT_H
#define REEL_FACES_SHIM_SUPPORT_H

#include <cstddef>
#include <cstring>
#include <string>

namespace reel_faces {

// Copies `message` into the caller's error buffer, truncated and terminated.
inline void write_error(char *error, size_t size, const std::string &message) {
    if (error == nullptr || size == 0) return;
    std::strncpy(error, message.c_str(), size - 1);
    error[size - 1] = '\0';
}

// Whether a picture's pointer and geometry can be read.
inline bool valid_picture(const void *pixels, int width, int height, int stride, int bytes_per_pixel) {
    return pixels != nullptr && width > 0 && height > 0 && stride >= width * bytes_per_pixel;
}

}  // namespace reel_faces

#endif
