import Foundation
import ReelKit
import Testing

/// `reel split`: one file per shot or highlight, read back with ReelKit's probe.
@Suite(.timeLimit(.minutes(5))) struct SplitTests {
    @Test func eachShotBecomesAFileOfItsLength() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try AnalyzeTests.story(in: scratch)
        let analyze = try await Reel.run(["analyze", "story.mp4", "--json", "-q"], in: scratch.url)
        try analyze.stdout.write(to: scratch.path("story.json"), atomically: true, encoding: .utf8)
        let shots = try #require(try analyze.jsonObject()["shots"] as? [[String: Double]])
        let run = try await Reel.run(["split", "story.mp4", "--shots", "-o", "shots", "--analysis", "story.json", "--speed", "ultrafast",
                                "--json", "-q"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let pieces = try #require(try run.jsonObject()["pieces"] as? [[String: Any]])
        #expect(pieces.count == shots.count)
        for (piece, shot) in zip(pieces, shots) {
            let output = try #require(piece["output"] as? String)
            #expect(output.hasPrefix("shots/story-shot-") && output.hasSuffix(String(format: "-%.2fs.mp4", shot["start"] ?? -1)), "\(output)")
            let info = try MediaInfo.probe(scratch.path(output))
            let length = (shot["end"] ?? 0) - (shot["start"] ?? 0)
            #expect(abs((info.primaryVideo?.duration ?? 0) - length) < 0.07, "\(output): \(info.primaryVideo?.duration ?? 0) vs \(length)")
        }
        let again = try await Reel.run(["split", "story.mp4", "--shots", "-o", "shots", "--analysis", "story.json"], in: scratch.url)
        #expect(again.status == 1 && again.stderr.contains("already exists"), "\(again.stderr)")
    }

    @Test func highlightsCopiedOnKeyframesAndUsageErrors() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try AnalyzeTests.story(in: scratch)
        let run = try await Reel.run(["split", "story.mp4", "--highlights", "-o", "best", "--copy", "-q"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path("best").path).sorted()
        #expect(!files.isEmpty && files.allSatisfy { $0.hasPrefix("story-highlight-") }, "\(files)")
        #expect(run.stdout.split(separator: "\n").count == files.count)
        for arguments in [["--shots", "--highlights", "-o", "x"], ["--shots"], ["-o", "x"]] {
            let bad = try await Reel.run(["split", "story.mp4"] + arguments, in: scratch.url)
            #expect(bad.status == 2, "\(arguments): \(bad.stderr)")
        }
    }
}
