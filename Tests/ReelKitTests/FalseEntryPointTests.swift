import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia

/// false_entry.mp4 flags a non-IDR I picture at 4.08 s as a keyframe with a recovery-point SEI
/// saying "clean from here", but the P pictures after it refer to pictures before it, as in some
/// phone files (imageio's cockatoo.mp4). A range starting after it must not be decoded from
/// there: its pictures came out grey garbage (the decoder conceals the missing references
/// without flagging the pictures), the same in every run.
@Suite(.timeLimit(.minutes(5))) struct FalseEntryPointTests {
    /// Every picture as 32x18 gray, decoded in file order by the ffmpeg CLI.
    static func pictures(_ url: URL, from first: Double? = nil) throws -> [[UInt8]] {
        let directory = try Fixtures.scratchDirectory("false-entry")
        let raw = directory.appendingPathComponent("\(UUID().uuidString).gray")
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", url.path, "-vsync", "passthrough",
                                             "-vf", "scale=32:18", "-pix_fmt", "gray", "-f", "rawvideo", raw.path])
        let bytes = [UInt8](try Data(contentsOf: raw))
        return stride(from: 0, to: bytes.count - 575, by: 576).map { Array(bytes[$0..<$0 + 576]) }
    }

    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(max(a.count, 1))
    }

    @Test func aRangeAfterAFalseEntryPointShowsTheRightPictures() async throws {
        let source = try Self.pictures(try Fixtures.clip("false_entry.mp4"))
        #expect(source.count == 300)
        for run in 1...3 {
            let (result, _, _) = try await Harness.compress("false_entry.mp4") { config in
                config.trim = .ranges([TimeRange(start: MediaTime(seconds: 4.5, timescale: 1000), end: MediaTime(seconds: 6, timescale: 1000))])
            }
            let shown = try Self.pictures(result.url)
            // The picture on screen at 4.5 s is frame 112 (4.48 s): the output's pictures are 112 on.
            #expect(shown.count >= 37 && shown.count <= 38, "\(shown.count) pictures")
            let worst = shown.indices.map { Self.meanDifference(shown[$0], source[112 + $0]) }.max() ?? 99
            #expect(worst < 6, "run \(run): a picture differs by \(worst) levels on average")
        }
    }

    /// A thumbnail at 5 s is the picture on screen there, not the garbage a decode from the
    /// false entry point gives.
    @Test func aThumbnailAfterAFalseEntryPointIsTheRightPicture() async throws {
        let source = try Self.pictures(try Fixtures.clip("false_entry.mp4"))
        let directory = try Fixtures.scratchDirectory("false-entry-thumbnail")
        let result = try await Thumbnailer(analyzer: VideoAnalyzer()).thumbnail(
            of: try Fixtures.clip("false_entry.mp4"), at: MediaTime(value: 5, timescale: 1), to: directory.appendingPathComponent("at5.png"))
        let shown = try Self.pictures(result.url)
        #expect(shown.count == 1)
        let difference = Self.meanDifference(try #require(shown.first), source[125])
        #expect(difference < 6, "the thumbnail differs by \(difference) levels on average")
    }

    /// The analysis decodes in chunks from keyframes: the chunk starting on the false entry
    /// point was measured on its garbage (a still grey: level 3.5 against 9 for the same moving
    /// pattern before the flash, and a cut at 4.2 s). It is decoded again from earlier now.
    @Test func theAnalysisDoesNotMeasureTheGarbage() async throws {
        var options = VideoAnalyzer.Options()
        options.decodeWorkers = 2
        let analysis = try await VideoAnalyzer(options: options).analysis(
            of: MediaIntelligenceVideoAsset(url: try Fixtures.clip("false_entry.mp4")))
        let cuts = analysis.boundaries.map(\.time.seconds)
        #expect(!cuts.contains { $0 > 4.1 && $0 < 12 }, "\(cuts)")
        let before = analysis.segments.filter { $0.timeRange.end.seconds <= 4 }.map(\.level)
        let after = analysis.segments.filter { $0.timeRange.start.seconds >= 4.5 }.map(\.level)
        let spread = (before + after).max().map { top in top - ((before + after).min() ?? top) } ?? 99
        #expect(!before.isEmpty && !after.isEmpty && spread < 1.5, "before \(before), after \(after)")
    }
}
