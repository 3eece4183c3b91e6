import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia

/// hls_segments.ts is three 4 s HLS-style segments of story.mp4 (still bars, the loud
/// scrolling action, a still) joined byte for byte: each starts at MPEG-TS's 1.4 s, so the clock
/// jumps back 4 s twice, under ffmpeg's 10 s threshold. Read from the start on one clock it is
/// a 12 s video; a time means one place in it.
@Suite(.timeLimit(.minutes(5))) struct TimestampJumpTests {
    /// Mean luma (0...255) of every picture, decoded in file order by the ffmpeg CLI at 32x18.
    static func pictureLumas(_ url: URL) throws -> [Double] {
        let directory = try Fixtures.scratchDirectory("lumas")
        let raw = directory.appendingPathComponent("pictures.gray")
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", url.path, "-map", "0:v:0", "-vsync", "passthrough",
                                             "-vf", "scale=32:18", "-pix_fmt", "gray", "-f", "rawvideo", raw.path])
        let bytes = [UInt8](try Data(contentsOf: raw))
        return stride(from: 0, to: bytes.count - 575, by: 576).map { start in
            Double(bytes[start..<start + 576].reduce(0) { $0 + Int($1) }) / 576
        }
    }

    /// The copy failed ("writing failed: Invalid argument": decode times went back), and a
    /// range on the joined clock was sought on the file's own, repeated one.
    @Test func copiesAndCutsOnTheJoinedClock() async throws {
        let source = try Fixtures.clip("hls_segments.ts")
        let info = try MediaInfo.probe(source)
        #expect(abs(info.duration - 12) < 0.1, "\(info.duration)")
        let (copy, copied, _) = try await Harness.compress("hls_segments.ts") { $0.streamCopy = true }
        #expect(abs(copied.duration - 12) < 0.1 && copy.analytics.compressedFrameCount == 360, "\(copied.duration) s")
        let lumas = try Self.pictureLumas(source)
        #expect(lumas.count == 360)
        // 6-7.5 s is the middle segment, whose pictures scroll: the cut shows them, not the bars
        // the first segment shows at the same raw timestamps.
        let (_, cut, _) = try await Harness.compress("hls_segments.ts") { config in
            config.trim = .ranges([TimeRange(start: MediaTime(seconds: 6, timescale: 1000), end: MediaTime(seconds: 7.5, timescale: 1000))])
        }
        #expect(abs(cut.duration - 1.5) < 0.1, "\(cut.duration)")
        let shown = try Self.pictureLumas(cut.url)
        let expected = Array(lumas[180..<225])
        #expect(shown.count == expected.count, "\(shown.count) pictures")
        let difference = zip(shown, expected).map { abs($0 - $1) }.max() ?? 99
        let otherSegment = zip(shown, lumas[60..<105]).map { abs($0 - $1) }.max() ?? 0
        #expect(difference < 4 && otherSegment > 10, "off by \(difference) (the first segment's: \(otherSegment))")
    }

    /// The analysis covered the first segment only (its raw clock ends at 4 s); now all 12 s, and
    /// the loud action of the middle segment is the highlight.
    @Test func theAnalysisCoversEverySegment() async throws {
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: try Fixtures.clip("hls_segments.ts")))
        #expect(abs(analysis.duration - 12) < 0.1, "\(analysis.duration)")
        #expect(abs((analysis.segments.last?.timeRange.end.seconds ?? 0) - 12) < 0.1)
        let highlights = HighlightSelector.highlights(analysis, minimumLevel: nil)
        let inAction = highlights.map { max(0, min($0.end.seconds, 8) - max($0.start.seconds, 4)) }.reduce(0, +)
        #expect(inAction > 2.5, "\(highlights)")
    }
}
