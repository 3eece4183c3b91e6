internal import CFFmpeg
import Foundation
import ReelSupport

/// Decodes single frames for inspection: a coarse grid of mean luma per block and frame
/// side data, used to check what an encode really produced.
enum FrameProbe {
    /// The first decoded frame's luma averaged over `columns x rows` blocks (0...1, row-major),
    /// with its HDR side data. Coded orientation: no display rotation is applied.
    static func firstFrame(of url: URL, columns: Int = 8, rows: Int = 8) throws(MediaFailure) -> (blocks: [Float], hdr: HDRMetadata?) {
        let input = try InputFile(url: url)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else { throw .noVideoStream }
        let decoder = try Decoder(input: input, streamIndex: index)
        var result: (blocks: [Float], hdr: HDRMetadata?)?
        try decoder.forEachFrame(in: input) { frame in
            result = (blockMeans(frame.pointer, columns: columns, rows: rows), HDRSideData.metadata(of: frame.pointer))
            return false
        }
        guard let result else { throw .failed(.decode, "avcodec_receive_frame", "no frame decoded") }
        return result
    }

    /// The block means of the last frame the file decodes to (read from the start: for short
    /// outputs, where "the frame at the duration minus one frame" depends on how the duration
    /// was counted).
    static func lastFrame(of url: URL, columns: Int = 8, rows: Int = 8) throws(MediaFailure) -> [Float] {
        let input = try InputFile(url: url)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else { throw .noVideoStream }
        let decoder = try Decoder(input: input, streamIndex: index)
        var result: [Float]?
        try decoder.forEachFrame(in: input) { frame in
            result = blockMeans(frame.pointer, columns: columns, rows: rows)
            return true
        }
        guard let result else { throw .failed(.decode, "avcodec_receive_frame", "no frame decoded") }
        return result
    }

    /// The block means of the first frame at or after `seconds`.
    static func frame(of url: URL, at seconds: Double, columns: Int = 8, rows: Int = 8) throws(MediaFailure) -> [Float] {
        let input = try InputFile(url: url)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else { throw .noVideoStream }
        let decoder = try Decoder(input: input, streamIndex: index)
        try input.seek(toSeconds: seconds)
        var result: [Float]?
        try decoder.forEachFrame(in: input) { frame in
            guard let time = decoder.time(of: frame), time.seconds >= seconds - 1e-3 else { return true }
            result = blockMeans(frame.pointer, columns: columns, rows: rows)
            return false
        }
        guard let result else { throw .failed(.decode, "avcodec_receive_frame", "no frame at \(seconds) s") }
        return result
    }

    private static func blockMeans(_ frame: UnsafePointer<AVFrame>, columns: Int, rows: Int) -> [Float] {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let stride = Int(frame.pointee.linesize.0)
        guard let plane = frame.pointee.data.0,
              let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format)) else { return [] }
        let wide = descriptor.pointee.comp.0.depth > 8
        let maximum = Float((1 << Int(descriptor.pointee.comp.0.depth)) - 1)
        var sums = [Float](repeating: 0, count: columns * rows)
        var counts = [Float](repeating: 0, count: columns * rows)
        for y in Swift.stride(from: 0, to: height, by: 2) {
            let row = min(y * rows / height, rows - 1)
            for x in Swift.stride(from: 0, to: width, by: 2) {
                let column = min(x * columns / width, columns - 1)
                let value: Float = wide
                    ? Float(UnsafeRawPointer(plane + y * stride + x * 2).loadUnaligned(as: UInt16.self))
                    : Float(plane[y * stride + x])
                sums[row * columns + column] += value / maximum
                counts[row * columns + column] += 1
            }
        }
        return zip(sums, counts).map { $1 > 0 ? $0 / $1 : 0 }
    }
}
