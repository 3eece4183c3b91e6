import Foundation
import ReelKit
import Testing

/// `reel split`: one file per shot or highlight, read back with ReelKit's probe.
@Suite(.timeLimit(.minutes(5))) struct SplitTests {
    @Test func eachShotBecomesAFileOfItsLength() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let analyze = try await Reel.run(["analyze", "story.mp4", "--json", "-q"], in: scratch.url)
        try analyze.stdout.write(to: scratch.path("story.json"), atomically: true, encoding: .utf8)
        let shots = try #require(try analyze.jsonObject()["shots"] as? [[String: Double]])
        let run = try await Reel.run(["split", "story.mp4", "--shots", "-o", "shots", "--analysis", "story.json", "--speed", "ultrafast",
                                "--json", "-q"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let pieces = try #require(try run.jsonObject()["pieces"] as? [[String: Any]])
        // The shot of black between the fade out and the fade in (13.83-15.17 s) is cut in the
        // black, its halves going to the shots either side; every other shot is a file.
        #expect(pieces.count == shots.count - 1, "\(pieces)")
        let starts = pieces.compactMap { $0["start"] as? Double }, ends = pieces.compactMap { $0["end"] as? Double }
        #expect(zip(ends, starts.dropFirst()).allSatisfy { abs($0 - $1) < 1e-3 } && abs((ends.last ?? 0) - (shots.last?["end"] ?? -1)) < 1e-3)
        #expect(starts.contains { abs($0 - 14.5) < 0.15 }, "\(starts)")
        for piece in pieces {
            let output = try #require(piece["output"] as? String)
            let start = try #require(piece["start"] as? Double), end = try #require(piece["end"] as? Double)
            #expect(output.hasPrefix("shots/story-shot-") && output.hasSuffix(String(format: "-%.2fs.mp4", start)), "\(output)")
            let info = try MediaInfo.probe(scratch.path(output))
            #expect(abs((info.primaryVideo?.duration ?? 0) - (end - start)) < 0.07, "\(output): \(info.primaryVideo?.duration ?? 0) vs \(end - start)")
        }
        let again = try await Reel.run(["split", "story.mp4", "--shots", "-o", "shots", "--analysis", "story.json"], in: scratch.url)
        #expect(again.status == 1 && again.stderr.contains("already exists"), "\(again.stderr)")
    }

    @Test func highlightsCopiedOnKeyframesAndUsageErrors() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
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

    /// `--reducer` decides which frames each piece keeps: on the scrolling shot (6-10 s), two
    /// seeds of the random reducer keep other pictures (far apart in PSNR), the same seed the same
    /// ones (encodes may differ in their last bits when the machine is busy, so not bytes).
    @Test func theReducerChoosesEachPiecesFrames() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let analyze = try await Reel.run(["analyze", "story.mp4", "--json", "-q"], in: scratch.url)
        try analyze.stdout.write(to: scratch.path("story.json"), atomically: true, encoding: .utf8)
        for (directory, seed) in [("first", "1"), ("again", "1"), ("other", "2")] {
            let run = try await Reel.run(["split", "story.mp4", "--shots", "-o", directory, "--analysis", "story.json", "--speed", "ultrafast",
                                          "--fps", "8", "--reducer", "random", "--seed", seed, "-q"], in: scratch.url)
            #expect(run.status == 0, "\(run.stderr)")
        }
        func psnr(_ first: String, _ second: String) async throws -> Double {
            let piece = "story-shot-003-6.00s.mp4"
            let run = try await Tool.run("/usr/bin/env", [
                "ffmpeg", "-hide_banner", "-nostdin", "-i", scratch.path("\(first)/\(piece)").path,
                "-i", scratch.path("\(second)/\(piece)").path, "-lavfi", "[0:v][1:v]psnr", "-f", "null", "-",
            ])
            let average = run.stderr.components(separatedBy: "average:").last?.prefix { !$0.isWhitespace } ?? ""
            return try #require(Double(average), "\(run.stderr)")
        }
        let same = try await psnr("first", "again")
        let other = try await psnr("first", "other")
        #expect(same > 40, "the same seed keeps the same pictures: \(same) dB")
        #expect(other < 30, "another seed keeps other pictures: \(other) dB")
    }
}
