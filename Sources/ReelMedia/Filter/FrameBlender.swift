internal import CFFmpeg
import ReelSupport

/// Mixes two decoded frames of the same size and planar format: `a * (1 - weight) + b * weight`.
/// Used for crossfades at joins; the result is a new frame with `b`'s properties.
enum FrameBlender {
    static func blend(_ a: Frame, _ b: Frame, weight: Double) throws(MediaFailure) -> Frame {
        let first = a.pointer.pointee, second = b.pointer.pointee
        guard first.width == second.width, first.height == second.height, first.format == second.format,
              let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: second.format)),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 || descriptor.pointee.nb_components == 1
        else { return try b.reference() }
        let output = try Frame()
        output.pointer.pointee.width = second.width
        output.pointer.pointee.height = second.height
        output.pointer.pointee.format = second.format
        try check(av_frame_get_buffer(output.pointer, 0), .filter, "av_frame_get_buffer")
        try check(av_frame_copy_props(output.pointer, b.pointer), .filter, "av_frame_copy_props")
        let wide = descriptor.pointee.comp.0.depth > 8
        let planes = Int(av_pix_fmt_count_planes(AVPixelFormat(rawValue: second.format)))
        let w = Float(min(max(weight, 0), 1))
        for index in 0..<planes {
            let chroma = index == 1 || index == 2
            let width = chroma ? Int(second.width) >> Int(descriptor.pointee.log2_chroma_w) : Int(second.width)
            let height = chroma ? -((-Int(second.height)) >> Int(descriptor.pointee.log2_chroma_h)) : Int(second.height)
            let bytes = width * (wide ? 2 : 1)
            guard let sourceA = plane(of: a, index), let sourceB = plane(of: b, index),
                  let target = plane(of: output, index) else { continue }
            let strideA = Int(lineSize(a, index)), strideB = Int(lineSize(b, index)), strideOut = Int(lineSize(output, index))
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

    private static func plane(of frame: Frame, _ index: Int) -> UnsafeMutablePointer<UInt8>? {
        switch index {
        case 0: return frame.pointer.pointee.data.0
        case 1: return frame.pointer.pointee.data.1
        case 2: return frame.pointer.pointee.data.2
        default: return frame.pointer.pointee.data.3
        }
    }

    private static func lineSize(_ frame: Frame, _ index: Int) -> Int32 {
        switch index {
        case 0: return frame.pointer.pointee.linesize.0
        case 1: return frame.pointer.pointee.linesize.1
        case 2: return frame.pointer.pointee.linesize.2
        default: return frame.pointer.pointee.linesize.3
        }
    }
}
