import Foundation

/// A file's sound decoded by the ffmpeg CLI, and what tests measure on it. Blocking: call it
/// through `offPool`.
struct SoundProbe {
    /// Mono samples at `rate` Hz.
    let samples: [Float]
    let rate: Double

    /// The first audio track of `url`, mixed to mono at `rate` Hz, as ffmpeg decodes it.
    init(_ url: URL, rate: Int = 48_000) throws {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("reelkit-sound-\(UUID().uuidString).f32")
        defer { try? FileManager.default.removeItem(at: raw) }
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", url.path, "-map", "0:a:0", "-ac", "1", "-ar", "\(rate)",
                                             "-f", "f32le", raw.path])
        let data = try Data(contentsOf: raw)
        samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        self.rate = Double(rate)
    }

    /// Seconds of sound.
    var duration: Double { Double(samples.count) / rate }

    /// The samples from `start` to `end` seconds.
    func slice(_ start: Double, _ end: Double) -> ArraySlice<Float> {
        let from = max(Int(start * rate), 0), to = min(Int(end * rate), samples.count)
        return from < to ? samples[from..<to] : []
    }

    /// The largest step between neighbouring samples from `start` to `end` seconds.
    func largestJump(_ start: Double, _ end: Double) -> Float {
        let part = slice(start, end)
        return zip(part, part.dropFirst()).map { abs($1 - $0) }.max() ?? 0
    }

    /// The root mean square from `start` to `end` seconds.
    func rms(_ start: Double, _ end: Double) -> Float {
        let part = slice(start, end)
        guard !part.isEmpty else { return 0 }
        return (part.map { $0 * $0 }.reduce(0, +) / Float(part.count)).squareRoot()
    }

    /// The lowest RMS of `window`-second windows (stepping by a millisecond) from `start` to `end`.
    func lowestRMS(_ start: Double, _ end: Double, window: Double) -> Float {
        stride(from: start, through: end - window, by: 0.001).map { rms($0, $0 + window) }.min() ?? 0
    }

    /// Integrated loudness (LUFS) and true peak (dBTP) of `url`'s sound, as the ffmpeg CLI's
    /// `ebur128` filter measures them.
    static func loudness(of url: URL) throws -> (integrated: Double, truePeak: Double) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("reelkit-ebur128-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: log) }
        // The summary goes to the log (standard error); `Fixtures.run` keeps only standard output.
        try Fixtures.run("/bin/sh", ["-c", "/usr/bin/ffmpeg -hide_banner -nostats -i '\(url.path)' -map 0:a:0 "
            + "-af ebur128=peak=true:framelog=verbose -f null - 2> '\(log.path)'"])
        let text = try String(contentsOf: log, encoding: .utf8)
        guard let summary = text.range(of: "Summary:") else { throw FixtureError.commandFailed("no ebur128 summary for \(url.path)") }
        let lines = text[summary.upperBound...].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func value(_ prefix: String) -> Double? {
            lines.first { $0.hasPrefix(prefix) }.flatMap { $0.dropFirst(prefix.count).split(separator: " ").first }.flatMap { Double($0) }
        }
        guard let integrated = value("I:"), let peak = value("Peak:") else {
            throw FixtureError.commandFailed("unreadable ebur128 summary for \(url.path)")
        }
        return (integrated, peak)
    }
}
