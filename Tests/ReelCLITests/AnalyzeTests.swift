import Foundation
import Testing

/// `reel analyze` on the analyzer's story fixture (see Fixtures/make-fixtures.sh).
@Suite(.timeLimit(.minutes(5))) struct AnalyzeTests {
    static func story(in scratch: Scratch) throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = root.appendingPathComponent("Fixtures/make-fixtures.sh")
        process.arguments = [scratch.url.path, "story.mp4"]
        try process.run()
        let exited = process.waitForExit(timeout: 120)
        try #require(exited && process.terminationStatus == 0)
        return scratch.path("story.mp4")
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try Self.story(in: scratch)
        let run = try Reel.run(["analyze", "story.mp4", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let object = try run.jsonObject()
        #expect(Set(object.keys) == ["source", "duration", "keyframe", "highlights", "segments", "shots",
                                     "boundaries", "analysisTime", "sampledFrames", "refinedCuts", "faces"])
        // The story clip is test patterns: no face.
        #expect((object["faces"] as? [Any])?.isEmpty == true)
        // 24 s sampled at 6 per second; story's cuts sit on keyframes, so none needs a second look.
        #expect((object["sampledFrames"] as? Int ?? 0) >= 140)
        #expect(object["refinedCuts"] as? Int == 0)
        #expect(object["source"] as? String == "story.mp4")
        #expect(abs((object["duration"] as? Double ?? 0) - 24) < 0.05)
        let keyframe = try #require(object["keyframe"] as? [String: Any])
        #expect(keyframe["time"] is Double)
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.first?["start"] as? Double == 0)
        for (a, b) in zip(segments, segments.dropFirst()) {
            #expect(a["end"] as? Double == b["start"] as? Double)
        }
        #expect(segments.allSatisfy { (0...9).contains($0["level"] as? Double ?? -1) })
        let highlights = try #require(object["highlights"] as? [[String: Any]])
        #expect(highlights.contains { ($0["start"] as? Double ?? 99) <= 6.1 && ($0["end"] as? Double ?? 0) >= 9.9 })
        let shots = try #require(object["shots"] as? [[String: Any]])
        #expect(shots.count >= 5)
    }

    @Test func textSummaryAndErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try Self.story(in: scratch)
        let run = try Reel.run(["analyze", "story.mp4"], in: scratch.url)
        #expect(run.status == 0)
        for text in ["story.mp4", "key frame", "shots", "highlights", "levels"] {
            #expect(run.stdout.contains(text), "missing \(text):\n\(run.stdout)")
        }
        let usage = try Reel.run(["analyze", "story.mp4", "--sample-rate", "0"], in: scratch.url)
        #expect(usage.status == 2)
        _ = try scratch.write("hello", to: "notes.mp4")
        let bad = try Reel.run(["analyze", "notes.mp4"], in: scratch.url)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("reel: notes.mp4: "))
        #expect(bad.stderr.split(separator: "\n").count == 1)
    }
}
