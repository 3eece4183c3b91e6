import Foundation
import ReelKit
import Testing

/// `--loudness` and `--fade` on the encoding commands: what they do, what the result says, and
/// the values they refuse.
@Suite(.timeLimit(.minutes(5))) struct SoundOptionsTests {
    /// The `loudness` object of a `--json` result (`nil` for JSON null).
    static func loudness(_ run: ReelRun) throws -> [String: Any]? {
        let result = try #require(try run.jsonObject()["result"] as? [String: Any])
        return result["loudness"] as? [String: Any]
    }

    /// `object[key]`'s integrated loudness and true peak.
    static func levels(_ object: [String: Any]?, _ key: String) throws -> (integrated: Double, truePeak: Double) {
        let levels = try #require(object?[key] as? [String: Any])
        return (try #require(levels["integrated"] as? Double), try #require(levels["truePeak"] as? Double))
    }

    @Test func compressBringsTheSoundToTheAskedLoudnessAndSaysSo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "--loudness", "-16", "--fade", "0.4", "--speed", "ultrafast",
                                      "--json", "--quiet"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.loudness(run)
        let target = try Self.levels(report, "target"), source = try Self.levels(report, "source")
        let output = try Self.levels(report, "output")
        #expect(target.integrated == -16 && target.truePeak == -1)
        // The clip's tone is quieter than that: raised, by a gain alone (its peaks have room).
        #expect(source.integrated < -18, "\(source)")
        #expect(abs(output.integrated + 16) <= 1 && output.truePeak <= -1, "\(output)")
        #expect(report?["limited"] as? Bool == false)
        #expect(abs((report?["gain"] as? Double ?? 0) - (-16 - source.integrated)) < 0.01)

        let summary = try await Reel.run(["compress", "clip.mp4", "--loudness", "-16", "--speed", "ultrafast", "-o", "again.mp4"],
                                         in: scratch.url)
        #expect(summary.status == 0, "\(summary.stderr)")
        let line = summary.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("loudness") }
        #expect(line.map { $0.contains("LUFS") && $0.contains("dBTP") && $0.contains(" dB") } == true, "\(summary.stdout)")

        let plain = try await Reel.run(["compress", "clip.mp4", "--speed", "ultrafast", "-o", "plain.mp4", "--json", "--quiet"],
                                       in: scratch.url)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Self.loudness(plain) == nil)
    }

    @Test func highlightsAreNormalisedUnlessTurnedOff() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let reel = try await Reel.run(["highlights", "story.mp4", "--max-duration", "6", "--speed", "ultrafast", "--json",
                                       "--quiet"], in: scratch.url)
        #expect(reel.status == 0, "\(reel.stderr)")
        let report = try Self.loudness(reel)
        #expect(try Self.levels(report, "target").integrated == -14)
        let output = try Self.levels(report, "output")
        #expect(abs(output.integrated + 14) <= 1 && output.truePeak <= -1, "\(output)")
        let kept = try await Reel.run(["highlights", "story.mp4", "--max-duration", "6", "--speed", "ultrafast", "--json",
                                       "--quiet", "--loudness", "off", "--fade", "0", "-o", "kept.mp4"], in: scratch.url)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(try Self.loudness(kept) == nil)
    }

    @Test func badValuesAreUsageErrors() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let word = try await Reel.run(["compress", "clip.mp4", "--loudness", "loud"], in: scratch.url)
        #expect(word.status == 2 && word.stderr.contains("LUFS") && word.stderr.contains("off"), "\(word.stderr)")
        let tooLoud = try await Reel.run(["compress", "clip.mp4", "--loudness", "3"], in: scratch.url)
        #expect(tooLoud.status == 2, "\(tooLoud.stderr)")
        let silent = try await Reel.run(["compress", "clip.mp4", "--loudness", "-14", "--no-audio"], in: scratch.url)
        #expect(silent.status == 2 && silent.stderr.contains("--no-audio"), "\(silent.stderr)")
        let copy = try await Reel.run(["compress", "clip.mp4", "--loudness", "-14", "--copy"], in: scratch.url)
        #expect(copy.status == 2 && copy.stderr.contains("stream copy"), "\(copy.stderr)")
        let fade = try await Reel.run(["compress", "clip.mp4", "--fade", "9"], in: scratch.url)
        #expect(fade.status == 2 && fade.stderr.contains("--fade"), "\(fade.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("clip-compressed.mp4").path))
    }
}
