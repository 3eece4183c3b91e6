import Foundation
import Testing

/// `reel analyze --json` saves the whole analysis; `reel highlights`, `reel thumbnail` and the
/// report of `reel compress --report` take it back with `--analysis FILE` instead of analyzing
/// again, and refuse one of another video.
@Suite(.timeLimit(.minutes(5))) struct SavedAnalysisTests {
    /// The analysis of story.mp4, edited: every segment at level 0 but the still bars (2-6 s)
    /// at 9, and the key frame at 3 s. A fresh analysis would pick the scrolling parts.
    static func editedAnalysis(in scratch: Scratch) async throws -> URL {
        let run = try await Reel.run(["analyze", "story.mp4", "--json", "-q"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        var object = try run.jsonObject()
        var analysis = try #require(object["analysis"] as? [String: Any])
        #expect(analysis["sourceFileSize"] as? Int == (try FileManager.default.attributesOfItem(atPath: scratch.path("story.mp4").path)[.size] as? Int))
        var segments = try #require(analysis["segments"] as? [[String: Any]])
        for index in segments.indices {
            let range = try #require(segments[index]["timeRange"] as? [String: [String: Int]])
            let start = Double(range["start"]?["value"] ?? 0) / Double(range["start"]?["timescale"] ?? 1)
            let end = Double(range["end"]?["value"] ?? 0) / Double(range["end"]?["timescale"] ?? 1)
            segments[index]["level"] = start >= 1.99 && end <= 6.01 ? 9 : 0
        }
        analysis["segments"] = segments
        analysis["keyFrame"] = ["value": 3, "timescale": 1]
        object["analysis"] = analysis
        let url = scratch.path("edited.json")
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        return url
    }

    @Test func highlightsAndThumbnailUseTheSavedAnalysis() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        _ = try await Self.editedAnalysis(in: scratch)
        let reel = try await Reel.run(["highlights", "story.mp4", "--analysis", "edited.json", "--dry-run", "--json", "-q"], in: scratch.url)
        #expect(reel.status == 0, "\(reel.stderr)")
        let ranges = try #require(try reel.jsonObject()["plannedRanges"] as? [[String: Double]])
        #expect(ranges.count == 1 && abs((ranges.first?["start"] ?? 0) - 2) < 0.05 && abs((ranges.first?["end"] ?? 0) - 6) < 0.05, "\(ranges)")
        let thumbnail = try await Reel.run(["thumbnail", "story.mp4", "--analysis", "edited.json", "-o", "poster.jpg", "--json"], in: scratch.url)
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        let times = try #require(try thumbnail.jsonObject()["times"] as? [Double])
        #expect(times.count == 1 && abs((times.first ?? 0) - 3) < 0.05, "\(times)")
    }

    @Test func anAnalysisOfAnotherVideoOrNoAnalysisIsRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        _ = try await Self.editedAnalysis(in: scratch)
        try TestClips.copy(.video, to: scratch.url, as: "other.mp4")
        for command in [["thumbnail", "other.mp4", "-o", "x.jpg"], ["highlights", "other.mp4", "--dry-run"],
                        ["compress", "other.mp4", "-o", "z.mp4", "--report", "z.html"]] {
            let run = try await Reel.run(command + ["--analysis", "edited.json"], in: scratch.url)
            #expect(run.status == 1 && run.stderr.contains("other.mp4") && run.stderr.contains("another video"), "\(command): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.jpg").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("z.mp4").path))
        let unused = try await Reel.run(["compress", "story.mp4", "--analysis", "edited.json"], in: scratch.url)
        #expect(unused.status == 2 && unused.stderr.contains("--report"), "compress uses an analysis only for its report: \(unused.stderr)")
        _ = try scratch.write("{}", to: "empty.json")
        let bad = try await Reel.run(["thumbnail", "story.mp4", "--analysis", "empty.json", "-o", "y.jpg"], in: scratch.url)
        #expect(bad.status == 2 && bad.stderr.contains("not a saved analysis"), "\(bad.stderr)")
        let batch = try await Reel.run(["highlights", "story.mp4", "other.mp4", "--analysis", "edited.json", "--dry-run"], in: scratch.url)
        #expect(batch.status == 2 && batch.stderr.contains("one input"), "\(batch.stderr)")
    }
}
