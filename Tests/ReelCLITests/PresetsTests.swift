import Foundation
import ReelKit
import Testing

/// `reel presets` and presets reaching `reel compress`.
@Suite(.timeLimit(.minutes(5))) struct PresetsTests {
    @Test func listsBuiltInPresetsWithTheirNumbers() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let json = try await Reel.run(["presets", "--json"], in: scratch.url)
        #expect(json.status == 0)
        let presets = try #require(try json.jsonObject()["presets"] as? [[String: Any]])
        #expect(presets.compactMap { $0["name"] as? String }
            == ["low", "medium", "high", "social", "messaging", "archive", "web"])
        let medium = try #require(presets.first { $0["name"] as? String == "medium" })
        #expect(medium["source"] as? String == "built-in")
        let video = try #require(medium["video"] as? [String: Any])
        #expect(video["maxLongerDimension"] as? Int == 1280)
        #expect(video["bitrate"] as? Int == 2_000_000)
        let text = try await Reel.run(["presets"], in: scratch.url)
        #expect(text.stdout.contains("messaging (built-in)"))
        #expect(text.stdout.contains("quality 0.55 capped at 2.00 Mb/s"), "\(text.stdout)")
    }

    @Test func userPresetIsListedAndUsable() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("""
            {"name": "tiny", "summary": "Thumbnails.",
             "video": {"maxLongerDimension": 128, "fps": 10, "speed": "ultrafast"},
             "audio": {"channels": 1}}
            """, to: "presets/tiny.json")
        let environment = ["REEL_PRESETS_DIR": scratch.path("presets").path]
        let listed = try await Reel.run(["presets"], in: scratch.url, environment: environment)
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("tiny (\(scratch.path("presets/tiny.json").path))"))

        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "--preset", "tiny", "--quiet"],
                               in: scratch.url, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let info = try MediaInfo.probe(scratch.path("clip-compressed.mp4"))
        #expect(info.primaryVideo?.video?.width == 128)
        #expect(abs((info.primaryVideo?.video?.frameRate ?? 0) - 10) < 0.5)
        #expect(info.primaryAudio?.audio?.channels == 1)
    }

    @Test func brokenPresetFileFailsWithItsPath() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("{\"video\": {}}", to: "broken.json")
        try scratch.write("fake\n", to: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "--preset-file", "broken.json"],
                               in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("reel: invalid preset: broken.json: missing key 'name'"),
                "\(run.stderr)")
    }
}
