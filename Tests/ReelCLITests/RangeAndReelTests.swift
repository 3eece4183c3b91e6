import Foundation
import ReelKit
import Testing

/// `reel compress --ranges` and `reel highlights`, read back with ReelKit's probe.
@Suite(.timeLimit(.minutes(5))) struct RangeAndReelTests {
    @Test func rangesAreKeptInOrderAndReported() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "clip.mp4")
        let run = try Reel.run(["compress", "clip.mp4", "--ranges", "4-5.5,00:00:01-00:00:02", "--speed", "ultrafast",
                                "--json", "--quiet"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(try run.jsonObject()["result"] as? [String: Any])
        let kept = try #require(result["keptRanges"] as? [[String: Double]])
        #expect(kept == [["start": 4, "end": 5.5], ["start": 1, "end": 2]])
        let info = try MediaInfo.probe(scratch.path("clip-compressed.mp4"))
        #expect(abs((info.primaryVideo?.duration ?? 0) - 2.5) < 0.07)
    }

    @Test func badRangesAndClashesAreUsageOrInputErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let malformed = try Reel.run(["compress", "clip.mp4", "--ranges", "2-1"], in: scratch.url)
        #expect(malformed.status == 2)
        let clash = try Reel.run(["compress", "clip.mp4", "--ranges", "0-0.5", "--start", "0.2"], in: scratch.url)
        #expect(clash.status == 2)
        let beyond = try Reel.run(["compress", "clip.mp4", "--ranges", "0.2-0.5,0.4-0.8"], in: scratch.url)
        #expect(beyond.status == 1)
        #expect(beyond.stderr.contains("overlaps range 1"), "\(beyond.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("clip-compressed.mp4").path))
    }

    @Test func highlightsMakesAReelWithinTheBudget() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try AnalyzeTests.story(in: scratch)
        let run = try Reel.run(["highlights", "story.mp4", "--max-duration", "8", "--speed", "ultrafast", "--json",
                                "--crossfade", "0.4", "--quiet"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("story-highlights.mp4"))
        let result = try #require(try run.jsonObject()["result"] as? [String: Any])
        let kept = try #require(result["keptRanges"] as? [[String: Double]])
        let total = kept.map { ($0["end"] ?? 0) - ($0["start"] ?? 0) }.reduce(0, +)
        // Each join overlaps by the 0.4 s crossfade, which counts inside the budget.
        let expected = total - 0.4 * Double(kept.count - 1)
        #expect(total > 3 && expected <= 8.001, "\(kept)")
        let info = try MediaInfo.probe(scratch.path("story-highlights.mp4"))
        #expect(abs((info.primaryVideo?.duration ?? 0) - expected) < Double(kept.count) / 30 + 0.01)
        let help = try Reel.run(["highlights", "--help"], in: scratch.url)
        #expect(help.stdout.contains("--max-duration") && help.stdout.contains("--preset"))
        #expect(!help.stdout.contains("--ranges"))
    }

    @Test func copyCutsLosslesslyAndSaysHowRangesMoved() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "clip.mp4")  // keyframes every 30 frames (1 s)
        let run = try Reel.run(["compress", "clip.mp4", "--ranges", "2.5-4.2", "--copy", "--json", "--quiet"],
                               in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(try run.jsonObject()["result"] as? [String: Any])
        #expect(result["streamCopied"] as? Bool == true)
        #expect(result["encoding"] is NSNull)
        #expect(result["requestedRanges"] as? [[String: Double]] == [["start": 2.5, "end": 4.2]])
        #expect(result["keptRanges"] as? [[String: Double]] == [["start": 2, "end": 5]])
        let text = try Reel.run(["compress", "clip.mp4", "--ranges", "2.5-4.2", "--copy", "--overwrite"],
                                in: scratch.url)
        #expect(text.stdout.contains("(copied)"), "\(text.stdout)")
    }
}
