import Foundation
import Testing

/// Luma of a rectangle of an image, by the ffmpeg CLI's signalstats.
enum ImageLuma {
    /// The darkest and brightest luma of the rectangle.
    static func range(_ image: URL, x: Int, y: Int, width: Int, height: Int) throws -> (darkest: Double, brightest: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-f", "lavfi", "-i", "movie=\(image.path),crop=\(width):\(height):\(x):\(y),signalstats",
                             "-show_entries", "frame_tags=lavfi.signalstats.YMIN,lavfi.signalstats.YMAX", "-of", "csv=p=0"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let values = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Double($0) }
        try #require(values.count == 2, "\(values)")
        return (values[0], values[1])
    }
}
