import Foundation
import Testing

/// `reel analyze` on the analyzer's story fixture (see Fixtures/make-fixtures.sh).
@Suite(.timeLimit(.minutes(5))) struct AnalyzeTests {
    static func story(in scratch: Scratch) async throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = root.appendingPathComponent("Fixtures/make-fixtures.sh")
        process.arguments = [scratch.url.path, "story.mp4"]
        try process.run()
        let exited = await process.exit(timeout: 120)
        try #require(exited && process.terminationStatus == 0)
        return scratch.path("story.mp4")
    }

    @Test func jsonHasTheDocumentedShape() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await Self.story(in: scratch)
        let run = try await Reel.run(["analyze", "story.mp4", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let object = try run.jsonObject()
        #expect(Set(object.keys) == ["source", "duration", "keyframe", "highlights", "levels", "segments", "shots",
                                     "boundaries", "analysisTime", "analysis", "sampledFrames", "refinedCuts", "faces"])
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
        // The request's levels: contiguous over the video, each highlight one of them, at its level.
        let levels = try #require(object["levels"] as? [[String: Any]])
        #expect(levels.first?["start"] as? Double == 0 && abs((levels.last?["end"] as? Double ?? 0) - 24) < 0.05)
        for (a, b) in zip(levels, levels.dropFirst()) {
            #expect(a["end"] as? Double == b["start"] as? Double)
        }
        for highlight in highlights {
            let entries = levels.filter { $0["start"] as? Double == highlight["start"] as? Double && $0["end"] as? Double == highlight["end"] as? Double }
            #expect(entries.count == 1 && entries.first?["highlight"] as? Bool == true, "\(highlight) in \(levels)")
            #expect(entries.first?["level"] as? Double == highlight["level"] as? Double && (highlight["level"] as? Double ?? 0) >= 6)
        }
        #expect(levels.filter { $0["highlight"] as? Bool == true }.count == highlights.count)
        let shots = try #require(object["shots"] as? [[String: Any]])
        #expect(shots.count >= 5)
    }

    /// `--format csv|edl|srt` list the same shots and highlights as `--json`, with frame numbers
    /// and timecodes at story's 30 fps; ffmpeg reads the SRT; `--json` with another format is
    /// a usage error.
    @Test func exportsListTheShotsAndHighlights() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await Self.story(in: scratch)
        let json = try (try await Reel.run(["analyze", "story.mp4", "--json", "-q"], in: scratch.url)).jsonObject()
        let shots = try #require(json["shots"] as? [[String: Double]])
        let highlights = try #require(json["highlights"] as? [[String: Double]])
        #expect(!highlights.isEmpty)
        let csv = try await Reel.run(["analyze", "story.mp4", "--format", "csv", "-q"], in: scratch.url)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows.first == ["kind", "index", "start", "end", "duration", "start_timecode", "end_timecode", "start_frame", "end_frame", "level"])
        let shotRows = rows.filter { $0.first == "shot" }, highlightRows = rows.filter { $0.first == "highlight" }
        #expect(shotRows.count == shots.count && highlightRows.count == highlights.count)
        // A highlight's level in the csv is the one --json gives it (its entry of the levels).
        for (row, highlight) in zip(highlightRows, highlights) {
            #expect(abs((Double(row[9]) ?? -1) - (highlight["level"] ?? -2)) < 0.006, "\(row) \(highlight)")
        }
        for (row, shot) in zip(shotRows, shots) {
            let start = try #require(shot["start"]), end = try #require(shot["end"])
            #expect(abs((Double(row[2]) ?? -1) - start) < 0.001 && abs((Double(row[3]) ?? -1) - end) < 0.001, "\(row)")
            #expect(Int(row[7]) == Int((start * 30 + 1e-3).rounded(.down)) && Int(row[8]) == Int((end * 30 + 1e-3).rounded(.down)), "\(row)")
        }
        // The last shot's end frame is the first after the video: its frame count.
        let counted = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                                             "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                             scratch.path("story.mp4").path])
        #expect(shotRows.last?[8] == counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(shotRows.last ?? [])")
        #expect(shotRows.first?[5] == "00:00:00.000" && shotRows.dropFirst().first?[5] == "00:00:02.000", "\(shotRows)")
        let edl = try await Reel.run(["analyze", "story.mp4", "--format", "edl", "-q"], in: scratch.url)
        let events = edl.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(edl.stdout.hasPrefix("TITLE: story\nFCM: NON-DROP FRAME") && events.count == highlights.count, "\(edl.stdout)")
        for (event, highlight) in zip(events, highlights) {
            let start = Int(((highlight["start"] ?? 0) * 30).rounded())
            let expected = String(format: "%02d:%02d:%02d:%02d", start / 108_000, start / 1800 % 60, start / 30 % 60, start % 30)
            #expect(event.split(separator: " ").map(String.init).contains(expected), "\(event) lacks \(expected)")
        }
        let srt = try await Reel.run(["analyze", "story.mp4", "--format", "srt", "-q"], in: scratch.url)
        try srt.stdout.write(to: scratch.path("chapters.srt"), atomically: true, encoding: .utf8)
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0",
                           scratch.path("chapters.srt").path]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        probe.waitUntilExit()
        let cues = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(probe.terminationStatus == 0 && Int(cues) == shots.count, "\(cues)")
        #expect(srt.stdout.contains("- highlight"))
        let clash = try await Reel.run(["analyze", "story.mp4", "--json", "--format", "csv"], in: scratch.url)
        #expect(clash.status == 2)
    }

    @Test func textSummaryAndErrors() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await Self.story(in: scratch)
        let run = try await Reel.run(["analyze", "story.mp4"], in: scratch.url)
        #expect(run.status == 0)
        for text in ["story.mp4", "key frame", "shots", "highlights", "levels"] {
            #expect(run.stdout.contains(text), "missing \(text):\n\(run.stdout)")
        }
        let usage = try await Reel.run(["analyze", "story.mp4", "--sample-rate", "0"], in: scratch.url)
        #expect(usage.status == 2)
        _ = try scratch.write("hello", to: "notes.mp4")
        let bad = try await Reel.run(["analyze", "notes.mp4"], in: scratch.url)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("reel: notes.mp4: "))
        #expect(bad.stderr.split(separator: "\n").count == 1)
    }
}
