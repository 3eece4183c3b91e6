import Foundation

/// The facts of an animated WebP, read from its RIFF chunks: FFmpeg 5.1 has no decoder for
/// animated WebP, so probing one finds neither its size nor its length.
package struct AnimatedWebPInfo: Sendable, Equatable {
    /// The canvas, in pixels.
    package var width: Int
    package var height: Int
    /// The `ANIM` chunk's loop count (0: forever).
    package var loopCount: Int
    /// Each frame's (`ANMF` chunk's) duration, in milliseconds.
    package var frameDurations: [Int]

    /// Seconds the animation lasts, once through.
    package var duration: Double { Double(frameDurations.reduce(0, +)) / 1000 }

    /// Reads `url`; `nil` when it is not an animated WebP (no `VP8X` canvas or no `ANIM` chunk).
    package init?(contentsOf url: URL) {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { return nil }
        self.init(data: data)
    }

    /// Reads the chunks of a WebP file's bytes.
    package init?(data: Data) {
        let bytes = [UInt8](data)
        func le(_ at: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else {
            return nil
        }
        var canvas: (Int, Int)?, loop: Int?, durations: [Int] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = le(offset + 4, 4)
            let body = offset + 8
            guard body + size <= bytes.count else { break }
            switch tag {
            case "VP8X" where size >= 10: canvas = (le(body + 4, 3) + 1, le(body + 7, 3) + 1)
            case "ANIM" where size >= 6: loop = le(body + 4, 2)
            case "ANMF" where size >= 16: durations.append(le(body + 12, 3))
            default: break
            }
            offset = body + size + (size & 1)
        }
        guard let canvas, let loop else { return nil }
        width = canvas.0
        height = canvas.1
        loopCount = loop
        frameDurations = durations
    }
}
