import CFFmpeg
import Foundation

/// Decodes single frames for inspection: a coarse grid of mean luma per block and frame
/// side data, used to check what an encode really produced.
enum FrameProbe {
    /// The first decoded frame's luma averaged over `columns x rows` blocks (0...1, row-major),
    /// with its HDR side data. Coded orientation: no display rotation is applied.
    static func firstFrame(of url: URL, columns: Int = 8, rows: Int = 8) throws -> (blocks: [Float], hdr: HDRMetadata?) {
        let input = try InputFile(url: url)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw FFmpegFailure("av_find_best_stream", message: "no video stream")
        }
        let decoder = try Decoder(input: input, streamIndex: index)
        let packet = try Packet()
        let frame = try Frame()
        var endOfFile = false
        while true {
            if !endOfFile {
                if try input.read(into: packet) {
                    defer { packet.unreference() }
                    guard packet.streamIndex == index else { continue }
                    _ = try decoder.send(packet)
                } else {
                    endOfFile = true
                    _ = try decoder.send(nil)
                }
            }
            switch try decoder.receive(into: frame) {
            case .produced:
                return (blockMeans(frame.pointer, columns: columns, rows: rows), HDRSideData.metadata(of: frame.pointer))
            case .endOfStream:
                throw FFmpegFailure("avcodec_receive_frame", message: "no frame decoded")
            case .needsInput:
                continue
            }
        }
    }

    /// The block means of the first frame at or after `seconds`.
    static func frame(of url: URL, at seconds: Double, columns: Int = 8, rows: Int = 8) throws -> [Float] {
        let input = try InputFile(url: url)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw FFmpegFailure("av_find_best_stream", message: "no video stream")
        }
        let decoder = try Decoder(input: input, streamIndex: index)
        try input.seek(toSeconds: seconds)
        let packet = try Packet()
        let frame = try Frame()
        while try input.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == index else { continue }
            _ = try decoder.send(packet)
            while try decoder.receive(into: frame) == .produced {
                defer { frame.unreference() }
                let time = Double(frame.presentationTimestamp ?? 0) * av_q2d(decoder.timeBase)
                if time >= seconds - 1e-3 { return blockMeans(frame.pointer, columns: columns, rows: rows) }
            }
        }
        throw FFmpegFailure("avcodec_receive_frame", message: "no frame at \(seconds) s")
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
