internal import CFFmpeg

/// A coarse grid of luma (and chroma) samples read straight from a decoded frame's planes (no
/// copy of the picture), normalized to 0...1. Used for scene-change scores and content
/// measurements.
struct LumaGrid: Equatable {
    static let columns = 48
    static let rows = 27
    private(set) var samples: [Float]
    /// U then V samples on the same grid (empty for gray frames).
    private(set) var chroma: [Float]
    /// Mean absolute difference between each sample and its right and lower neighbour pixels at
    /// full resolution, 0...1: how much fine detail (texture, sharp edges) the picture has.
    private(set) var detail: Double

    /// Samples a planar YUV (or gray) frame of 8 to 16 bits; `nil` for other layouts. With a
    /// `patch` above 1 each luma sample is the mean of a `patch` x `patch` square (chroma: half
    /// that), so fine busy textures (noise, foliage, water) change little from frame to frame
    /// while a new shot's colours and layout still do.
    init?(frame: UnsafePointer<AVFrame>, patch: Int = 1) {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard let descriptor = av_pix_fmt_desc_get(format),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0,
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0,
              let plane = frame.pointee.data.0
        else { return nil }
        let depth = Int(descriptor.pointee.comp.0.depth)
        let stepBytes = Int(descriptor.pointee.comp.0.step)
        let offset = Int(descriptor.pointee.comp.0.offset)
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let stride = Int(frame.pointee.linesize.0)
        guard width > 0, height > 0, stepBytes > 0 else { return nil }
        let scale = 1 / Float((1 << depth) - 1)
        let wide = stepBytes >= 2 || depth > 8
        let shift = Int(descriptor.pointee.comp.0.shift)
        func pixel(_ x: Int, _ y: Int) -> Float {
            let byte = plane + y * stride + x * stepBytes + offset
            let value = wide ? Int(UnsafeRawPointer(byte).loadUnaligned(as: UInt16.self)) >> shift : Int(byte.pointee)
            return Float(value) * scale
        }
        let side = max(1, min(patch, width, height))
        let layout = PlaneLayout(base: plane, stride: stride, step: stepBytes, offset: offset, wide: wide, shift: shift)
        func sample(_ x: Int, _ y: Int) -> Float {
            guard side > 1 else { return pixel(x, y) }
            let left = min(max(x - side / 2, 0), width - side), top = min(max(y - side / 2, 0), height - side)
            return Float(layout.sum(left: left, top: top, side: side)) / Float(side * side) * scale
        }
        var samples = [Float](repeating: 0, count: Self.columns * Self.rows)
        var detailTotal: Float = 0
        for row in 0..<Self.rows {
            let y = (row * 2 + 1) * height / (Self.rows * 2)
            let below = min(y + 1, height - 1)
            for column in 0..<Self.columns {
                let x = (column * 2 + 1) * width / (Self.columns * 2)
                let here = pixel(x, y)
                samples[row * Self.columns + column] = sample(x, y)
                detailTotal += abs(here - pixel(min(x + 1, width - 1), y)) + abs(here - pixel(x, below))
            }
        }
        self.samples = samples
        self.detail = Double(detailTotal / Float(2 * samples.count))
        self.chroma = Self.chromaSamples(frame, descriptor: descriptor.pointee, scale: scale, patch: max(side / 2, 1))
    }

    /// Mean absolute difference to another grid, 0 (same) to 1: luma, U and V count a third
    /// each (like PySceneDetect's mean of H, S and V changes), so a cut between differently
    /// colored shots stands out from motion inside a shot.
    func difference(to other: LumaGrid) -> Double {
        let luma = Float(lumaDifference(to: other))
        guard !chroma.isEmpty, chroma.count == other.chroma.count else { return Double(luma) }
        var color: Float = 0
        for index in chroma.indices { color += abs(chroma[index] - other.chroma[index]) }
        color /= Float(chroma.count)
        return Double((luma + 2 * color) / 3)
    }

    /// Mean absolute luma difference to another grid, 0...1: how much the picture moved.
    func lumaDifference(to other: LumaGrid) -> Double {
        var total: Float = 0
        for index in samples.indices { total += abs(samples[index] - other.samples[index]) }
        return Double(total / Float(samples.count))
    }

    /// U and V point samples on the grid for planar YUV frames.
    private static func chromaSamples(_ frame: UnsafePointer<AVFrame>, descriptor: AVPixFmtDescriptor, scale: Float, patch: Int) -> [Float] {
        guard descriptor.nb_components >= 3, let uPlane = frame.pointee.data.1, let vPlane = frame.pointee.data.2 else { return [] }
        let width = Int(frame.pointee.width) >> Int(descriptor.log2_chroma_w)
        let height = Int(frame.pointee.height) >> Int(descriptor.log2_chroma_h)
        let wide = descriptor.comp.1.step >= 2
        let step = Int(descriptor.comp.1.step)
        guard width > 0, height > 0 else { return [] }
        var result = [Float](repeating: 0, count: 2 * columns * rows)
        for (planeIndex, plane) in [uPlane, vPlane].enumerated() {
            let stride = Int(planeIndex == 0 ? frame.pointee.linesize.1 : frame.pointee.linesize.2)
            for row in 0..<rows {
                let y = (row * 2 + 1) * height / (rows * 2)
                let side = max(1, min(patch, width, height))
                let top = min(max(y - side / 2, 0), height - side)
                let layout = PlaneLayout(base: plane, stride: stride, step: step, offset: 0, wide: wide, shift: 0)
                for column in 0..<columns {
                    let x = (column * 2 + 1) * width / (columns * 2)
                    let left = min(max(x - side / 2, 0), width - side)
                    let total = Float(layout.sum(left: left, top: top, side: side))
                    result[planeIndex * columns * rows + row * columns + column] = total / Float(side * side) * scale
                }
            }
        }
        return result
    }

    /// Mean brightness, 0...1.
    var mean: Double { Double(samples.reduce(0, +) / Float(samples.count)) }
}

/// Where the samples of one plane of a frame are, for summing squares of them.
struct PlaneLayout {
    let base: UnsafeMutablePointer<UInt8>
    let stride: Int
    let step: Int
    let offset: Int
    let wide: Bool
    let shift: Int

    /// The sum of the `side` x `side` samples from (`left`, `top`).
    func sum(left: Int, top: Int, side: Int) -> Int {
        var total = 0
        if !wide && step == 1 && (side == 8 || side == 4) {
            return Self.packedSquareSum(at: UnsafeRawPointer(base + top * stride + offset + left), stride: stride, side: side)
        }
        if !wide && step == 1 {
            for row in top..<(top + side) {
                let line = UnsafePointer(base + row * stride + offset + left)
                for column in 0..<side { total &+= Int(line[column]) }
            }
            return total
        }
        for row in top..<(top + side) {
            let line = base + row * stride + offset
            for column in left..<(left + side) {
                let byte = line + column * step
                total &+= wide ? Int(UnsafeRawPointer(byte).loadUnaligned(as: UInt16.self)) >> shift : Int(byte.pointee)
            }
        }
        return total
    }

    /// The sum of the 8-bit square of side 8 or 4 whose top left byte is at `start`, a row at a
    /// time: the row's bytes are loaded as one word and added in pairs as 16-bit lanes (at most
    /// 8 x 510, no lane overflows), then the lanes are added once. The analysis sums such a
    /// square for every grid point of every decoded frame.
    static func packedSquareSum(at start: UnsafeRawPointer, stride: Int, side: Int) -> Int {
        let evenBytes: UInt64 = 0x00FF_00FF_00FF_00FF
        var lanes: UInt64 = 0
        for row in 0..<side {
            let line = start + row * stride
            let word = side == 8 ? UInt64(littleEndian: line.loadUnaligned(as: UInt64.self))
                : UInt64(UInt32(littleEndian: line.loadUnaligned(as: UInt32.self)))
            lanes &+= (word & evenBytes) &+ ((word >> 8) & evenBytes)
        }
        return Int((lanes &* 0x0001_0001_0001_0001) >> 48)
    }
}
