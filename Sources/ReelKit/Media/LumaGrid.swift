import CFFmpeg

/// A coarse grid of luma samples read straight from a decoded frame's first plane (no copy of
/// the picture), normalized to 0...1. Used for scene-change scores and content measurements.
struct LumaGrid: Equatable {
    static let columns = 48
    static let rows = 27
    private(set) var samples: [Float]
    /// Mean absolute difference between each sample and its right and lower neighbour pixels at
    /// full resolution, 0...1: how much fine detail (texture, sharp edges) the picture has.
    private(set) var detail: Double

    /// Samples a planar YUV (or gray) frame of 8 to 16 bits; `nil` for other layouts.
    init?(frame: UnsafePointer<AVFrame>) {
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
        var samples = [Float](repeating: 0, count: Self.columns * Self.rows)
        var detailTotal: Float = 0
        for row in 0..<Self.rows {
            let y = (row * 2 + 1) * height / (Self.rows * 2)
            let below = min(y + 1, height - 1)
            for column in 0..<Self.columns {
                let x = (column * 2 + 1) * width / (Self.columns * 2)
                let here = pixel(x, y)
                samples[row * Self.columns + column] = here
                detailTotal += abs(here - pixel(min(x + 1, width - 1), y)) + abs(here - pixel(x, below))
            }
        }
        self.samples = samples
        self.detail = Double(detailTotal / Float(2 * samples.count))
    }

    /// Mean absolute difference to another grid, 0 (same) to 1.
    func difference(to other: LumaGrid) -> Double {
        var total: Float = 0
        for index in samples.indices { total += abs(samples[index] - other.samples[index]) }
        return Double(total / Float(samples.count))
    }

    /// Mean brightness, 0...1.
    var mean: Double { Double(samples.reduce(0, +) / Float(samples.count)) }
}
