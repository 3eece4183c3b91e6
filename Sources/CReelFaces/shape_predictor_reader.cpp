#include "shape_predictor_reader.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <vector>

// dlib's format (dlib/serialize.h, float_details.h, matrix.h, shape_predictor.h): an integer is
// a control byte (size in the low four bits, 0x80 for negative) and that many little-endian
// bytes; a float is its mantissa (int64) and exponent (int16) as two such integers; a vector
// is its size and its items; a matrix its negated rows and columns, then its items by row.

namespace {

class Cursor {
  public:
    Cursor(const unsigned char *bytes, size_t count) : next(bytes), end(bytes + count) {}

    bool failed() const { return broken; }

    template <typename T> T integer() {
        if (next >= end) return fail<T>();
        const unsigned char control = *next++;
        const bool negative = std::numeric_limits<T>::is_signed && (control & 0x80) != 0;
        // Unsigned values keep the sign bit in the size, so that it reads as too big.
        const unsigned size = std::numeric_limits<T>::is_signed ? (control & 0x0F) : (control & 0x8F);
        if (size == 0 || size > sizeof(T) || static_cast<size_t>(end - next) < size) return fail<T>();
        uint64_t value = 0;
        for (unsigned index = size; index > 0; --index) value = (value << 8) | next[index - 1];
        next += size;
        T item = static_cast<T>(value);
        if (negative) item = static_cast<T>(item * -1);
        return item;
    }

    float real() {
        const auto mantissa = integer<int64_t>();
        const auto exponent = integer<int16_t>();
        // As dlib's float_details::convert_to_T<float>, whose ldexp is a tenth of the load:
        // scaling by a power of two that is itself a normal float is exact in the same way.
        if (exponent >= -126 && exponent <= 127) {
            const uint32_t bits = static_cast<uint32_t>(exponent + 127) << 23;
            float scale;
            std::memcpy(&scale, &bits, sizeof scale);
            return static_cast<float>(mantissa) * scale;
        }
        if (exponent < 32000) return std::ldexp(static_cast<float>(mantissa), exponent);
        if (exponent == 32000) return std::numeric_limits<float>::infinity();
        if (exponent == 32001) return -std::numeric_limits<float>::infinity();
        return std::numeric_limits<float>::quiet_NaN();
    }

    // A size that cannot exceed what is left (each item takes at least one byte).
    size_t count() {
        const auto size = integer<unsigned long>();
        if (size > static_cast<size_t>(end - next)) return fail<size_t>();
        return size;
    }

    dlib::matrix<float, 0, 1> column() {
        long rows = integer<long>(), columns = integer<long>();
        if (rows < 0 || columns < 0) {
            rows = -rows;
            columns = -columns;
        }
        dlib::matrix<float, 0, 1> result;
        if (broken || columns != 1 || rows > end - next) return fail<dlib::matrix<float, 0, 1>>();
        result.set_size(rows);
        for (long row = 0; row < rows; ++row) result(row) = real();
        return result;
    }

  private:
    template <typename T> T fail() {
        broken = true;
        next = end;
        return T();
    }

    const unsigned char *next;
    const unsigned char *end;
    bool broken = false;
};

// The file's bytes, read in one go into a buffer that is not cleared first. Not mapped: a
// model file replaced in place while it is mapped (a `make models` in another shell) would stop
// the process with SIGBUS, where a short read is only a failed load.
struct FileBytes {
    explicit FileBytes(const std::string &path) {
        std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"), std::fclose);
        if (!file || std::fseek(file.get(), 0, SEEK_END) != 0) return;
        const long size = std::ftell(file.get());
        if (size <= 0 || std::fseek(file.get(), 0, SEEK_SET) != 0) return;
        std::unique_ptr<unsigned char[]> buffer(new (std::nothrow) unsigned char[static_cast<size_t>(size)]);
        if (!buffer || std::fread(buffer.get(), 1, static_cast<size_t>(size), file.get()) != static_cast<size_t>(size)) return;
        bytes = std::move(buffer);
        length = static_cast<size_t>(size);
    }

    std::unique_ptr<unsigned char[]> bytes;
    size_t length = 0;
};

}  // namespace

namespace reel_faces {

bool read_shape_predictor(const std::string &path, dlib::shape_predictor &model) {
    const FileBytes file(path);
    if (!file.bytes) return false;
    Cursor input(file.bytes.get(), file.length);
    if (input.integer<int>() != 1) return false;
    const dlib::matrix<float, 0, 1> initial_shape = input.column();
    if (input.failed() || initial_shape.size() == 0 || initial_shape.size() % 2 != 0) return false;

    std::vector<std::vector<dlib::impl::regression_tree>> forests(input.count());
    for (auto &forest : forests) {
        forest.resize(input.count());
        for (auto &tree : forest) {
            tree.splits.resize(input.count());
            for (auto &split : tree.splits) {
                split.idx1 = input.integer<unsigned long>();
                split.idx2 = input.integer<unsigned long>();
                split.thresh = input.real();
            }
            tree.leaf_values.resize(input.count());
            for (auto &leaf : tree.leaf_values) leaf = input.column();
            if (input.failed()) return false;
        }
    }
    std::vector<std::vector<unsigned long>> anchors(input.count());
    for (auto &cascade : anchors) {
        cascade.resize(input.count());
        for (auto &anchor : cascade) anchor = input.integer<unsigned long>();
    }
    std::vector<std::vector<dlib::vector<float, 2>>> deltas(input.count());
    for (auto &cascade : deltas) {
        cascade.resize(input.count());
        for (auto &delta : cascade) {
            const float x = input.real();
            const float y = input.real();
            delta = dlib::vector<float, 2>(x, y);
        }
    }
    if (input.failed() || anchors.size() != forests.size() || deltas.size() != forests.size()) return false;

    // dlib's public constructor takes each feature pixel's place in the initial shape and
    // encodes it again relative to its nearest point, which is the anchor it was saved with.
    const unsigned long parts = static_cast<unsigned long>(initial_shape.size() / 2);
    std::vector<std::vector<dlib::vector<float, 2>>> pixels(forests.size());
    for (size_t cascade = 0; cascade < forests.size(); ++cascade) {
        if (anchors[cascade].size() != deltas[cascade].size()) return false;
        for (size_t index = 0; index < anchors[cascade].size(); ++index) {
            const unsigned long anchor = anchors[cascade][index];
            if (anchor >= parts) return false;
            const dlib::vector<float, 2> place(initial_shape(anchor * 2), initial_shape(anchor * 2 + 1));
            pixels[cascade].push_back(place + deltas[cascade][index]);
        }
        for (const auto &tree : forests[cascade]) {
            if (tree.leaf_values.size() != tree.splits.size() + 1) return false;
            for (const auto &split : tree.splits) {
                if (split.idx1 >= pixels[cascade].size() || split.idx2 >= pixels[cascade].size()) return false;
            }
        }
    }
    model = dlib::shape_predictor(initial_shape, forests, pixels);
    return true;
}

void load_shape_predictor(const std::string &path, dlib::shape_predictor &model) {
    if (!read_shape_predictor(path, model)) dlib::deserialize(path) >> model;
}

}  // namespace reel_faces
