internal import CFFmpeg
import ReelSupport

/// Mixes two decoded frames of the same size and planar format: `a * (1 - weight) + b * weight`.
/// Used for crossfades at joins; the result is a new frame with `b`'s properties.
enum FrameBlender {
    static func blend(_ a: Frame, _ b: Frame, weight: Double) throws(MediaFailure) -> Frame {
        let second = b
        guard a.width == b.width, a.height == b.height, a.format == b.format,
              let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: b.format)),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 || descriptor.pointee.nb_components == 1
        else { return try b.reference() }
        let output = try Frame()
        try output.allocatePicture(width: b.width, height: b.height, format: b.format, stage: .filter)
        try check(av_frame_copy_props(output.pointer, b.pointer), .filter, "av_frame_copy_props")
        let wide = descriptor.pointee.comp.0.depth > 8
        let planes = Int(av_pix_fmt_count_planes(AVPixelFormat(rawValue: second.format)))
        let w = Float(min(max(weight, 0), 1))
        for index in 0..<planes {
            let chroma = index == 1 || index == 2
            let width = chroma ? Int(second.width) >> Int(descriptor.pointee.log2_chroma_w) : Int(second.width)
            let height = chroma ? -((-Int(second.height)) >> Int(descriptor.pointee.log2_chroma_h)) : Int(second.height)
            let bytes = width * (wide ? 2 : 1)
            guard let (sourceA, strideA) = a.plane(index), let (sourceB, strideB) = b.plane(index),
                  let (target, strideOut) = output.plane(index) else { continue }
            for row in 0..<height {
                let rowA = sourceA + row * strideA, rowB = sourceB + row * strideB, rowOut = target + row * strideOut
                if wide {
                    let pa = UnsafeRawPointer(rowA).assumingMemoryBound(to: UInt16.self)
                    let pb = UnsafeRawPointer(rowB).assumingMemoryBound(to: UInt16.self)
                    let po = UnsafeMutableRawPointer(rowOut).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<width { po[x] = UInt16(Float(pa[x]) * (1 - w) + Float(pb[x]) * w + 0.5) }
                } else {
                    for x in 0..<bytes { rowOut[x] = UInt8(Float(rowA[x]) * (1 - w) + Float(rowB[x]) * w + 0.5) }
                }
            }
        }
        return output
    }
}
