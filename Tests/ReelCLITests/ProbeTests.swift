import Foundation
import Testing

/// `reel probe`: the JSON shape, the text, and failures.
@Suite(.timeLimit(.minutes(5))) struct ProbeTests {
    @Test func jsonDescribesContainerAndStreams() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["probe", "clip.mp4", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try run.jsonObject()
        #expect(Set(object.keys) == [
            "file", "container", "duration", "startTime", "size", "bitRate",
            "primaryVideoStream", "primaryAudioStream", "streams",
        ])
        #expect(try #require(object["duration"] as? Double) > 0.9)
        #expect(try #require(object["size"] as? Int) > 1000)
        let streams = try #require(object["streams"] as? [[String: Any]])
        #expect(streams.count == 2)
        for stream in streams {
            #expect(Set(stream.keys) == [
                "index", "kind", "role", "codec", "profile", "bitRate", "duration", "frameCount",
                "handlerName", "language", "textSubtitles", "video", "audio",
            ])
        }
        let video = try #require(streams[0]["video"] as? [String: Any])
        #expect(streams[0]["role"] as? String == "primary-video")
        #expect(video["width"] as? Int == 320 && video["height"] as? Int == 180)
        #expect(video["visualWidth"] as? Int == 320 && video["rotation"] as? Int == 0)
        #expect(video["variableFrameRate"] as? Bool == false && video["interlaced"] as? Bool == false)
        #expect(Set(try #require(video["color"] as? [String: Any]).keys)
            == ["primaries", "transfer", "matrix", "range"])
        #expect(streams[0]["audio"] is NSNull)
        let audio = try #require(streams[1]["audio"] as? [String: Any])
        #expect(streams[1]["role"] as? String == "primary-audio")
        #expect(audio["channels"] as? Int == 2 && audio["sampleRate"] as? Int == 48000)
    }

    @Test func textNamesTheFileAndEachStream() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["probe", "clip.mp4"], in: scratch.url)
        #expect(run.status == 0)
        for text in ["clip.mp4", "#0 video, primary-video: h264", "320x180, 30 fps",
                     "#1 audio track 1, primary-audio: aac", "48000 Hz, 2 channels"] {
            #expect(run.stdout.contains(text), "missing \(text):\n\(run.stdout)")
        }
    }

    @Test(arguments: [
        ("missing.mp4", "reel: missing.mp4: no such file\n"),
        ("notes.mp4", "reel: notes.mp4: cannot read as media"),
    ])
    func unreadableInputFailsWithOneLine(name: String, message: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("not a video\n", to: "notes.mp4")
        let run = try await Reel.run(["probe", name], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }
}
