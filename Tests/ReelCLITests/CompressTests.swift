import Foundation
import ReelKit
import Testing

/// `reel compress` on one file: overrides reaching the output, JSON, naming, refusals.
@Suite(.timeLimit(.minutes(5))) struct CompressTests {
    @Test func overridesReachTheOutput() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run([
            "compress", "clip.mp4", "--max-dimension", "160", "--fps", "15", "--audio-channels", "1",
            "--audio-rate", "32000", "--audio-bitrate", "48k", "--keyint", "10", "--bitrate",
            "100k", "--no-content-aware", "--speed", "ultrafast", "--json", "--quiet",
        ], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "--quiet prints nothing on stderr: \(run.stderr)")
        let object = try run.jsonObject()
        #expect(object["status"] as? String == "compressed")
        #expect(object["output"] as? String == scratch.path("clip-compressed.mp4").path)
        let result = try #require(object["result"] as? [String: Any])
        let encoding = try #require(result["encoding"] as? [String: Any])
        #expect(encoding["keyFrameInterval"] as? Int == 10)
        // Under what the source spends on a 160x90 15 fps picture, so the source-rate clamp keeps it.
        #expect(encoding["maxBitrate"] as? Int == 100_000)

        let info = try MediaInfo.probe(scratch.path("clip-compressed.mp4"))
        let video = try #require(info.primaryVideo?.video)
        #expect(video.width == 160 && video.height == 90)
        #expect(abs(video.frameRate - 15) < 0.5, "fps \(video.frameRate)")
        let audio = try #require(info.primaryAudio?.audio)
        #expect(audio.channels == 1)
        #expect(audio.sampleRate == 32000)
    }

    /// An output named .avi or .flv is refused before any work (no MP4 bytes under a misleading
    /// extension); .m4v is Apple's name for MP4 and gets an MP4.
    @Test func outputExtensionsPickTheContainerOrAreRefused() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.silent, to: scratch.url, as: "silent.mp4")
        for name in ["out.avi", "out.flv", "out.ts"] {
            let run = try await Reel.run(["compress", "silent.mp4", "-o", name, "--speed", "ultrafast"], in: scratch.url)
            #expect(run.status == 2, "\(name): \(run.stderr)")
            #expect(run.stderr.contains(name) && run.stderr.contains(".mp4, .mov, .webm, .mkv, .gif or .webp"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path(name).path))
        }
        let run = try await Reel.run(["compress", "silent.mp4", "-o", "out.m4v", "--speed", "ultrafast", "--quiet"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let info = try MediaInfo.probe(scratch.path("out.m4v"))
        #expect(info.containerName.contains("mp4"), "\(info.containerName)")
        #expect(info.primaryVideo != nil)
    }

    /// Compressing an already tightly compressed file with a generous preset makes it larger:
    /// the report says "larger" plainly and warns, instead of "0.50x smaller, -100% saved".
    @Test func aLargerOutputIsReportedPlainlyWithAWarning() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.silent, to: scratch.url, as: "silent.mp4")
        let tight = try await Reel.run(["compress", "silent.mp4", "-o", "tight.mp4", "--rate-control", "average", "--bitrate", "20k",
                                  "--speed", "ultrafast", "--quiet"], in: scratch.url)
        #expect(tight.status == 0, "\(tight.stderr)")
        let run = try await Reel.run(["compress", "tight.mp4", "--preset", "high", "--speed", "ultrafast"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("larger than the source"), "\(run.stdout)")
        #expect(!run.stdout.contains("saved"), "\(run.stdout)")
        #expect(run.stderr.contains("warning: tight-compressed.mp4 is") && run.stderr.contains("keep the original"), "\(run.stderr)")
        let quiet = try await Reel.run(["compress", "tight.mp4", "--preset", "high", "--speed", "ultrafast", "--overwrite", "--quiet"],
                                 in: scratch.url)
        #expect(quiet.stderr.isEmpty)
    }

    @Test func jsonKeysAreStableAndNumeric() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.silent, to: scratch.url, as: "silent.mp4")
        let run = try await Reel.run(
            ["compress", "silent.mp4", "--speed", "ultrafast", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("\r"), "no progress bar when stderr is not a terminal")
        let object = try run.jsonObject()
        #expect(Set(object.keys) == ["input", "output", "status", "error", "note", "result", "deadAir"])
        #expect(object["error"] is NSNull && object["note"] is NSNull && object["deadAir"] is NSNull)
        let result = try #require(object["result"] as? [String: Any])
        #expect(Set(result.keys) == [
            "compressionRatio", "processingTime", "planningTime", "encodingTime", "videoCodec", "original", "compressed",
            "encoding", "contentAdjustment", "droppedTracks", "keptRanges", "requestedRanges", "streamCopied",
            "corruptPacketsSkipped", "damagedFrames", "mistimedFramesDropped", "sourceCutShortAt", "targetSize", "targetQuality", "cameraPath",
            "loudness",
        ])
        #expect(result["loudness"] is NSNull, "compress keeps the source's loudness unless asked")
        #expect(result["corruptPacketsSkipped"] as? Int == 0)
        #expect(result["mistimedFramesDropped"] as? Int == 0)
        #expect(result["sourceCutShortAt"] is NSNull, "a whole source")
        #expect(result["damagedFrames"] as? Int == 0)
        let original = try #require(result["original"] as? [String: Any])
        #expect(Set(original.keys) == [
            "fileSize", "duration", "width", "height", "videoBitrate", "audioBitrate",
            "frameCount", "frameRate",
        ])
        #expect(original["audioBitrate"] is NSNull, "a silent source has no audio bit rate")
        let compressed = try #require(result["compressed"] as? [String: Any])
        #expect(Set(compressed.keys) == Set(original.keys).union(["visualWidth", "visualHeight"]))
        #expect(try #require(compressed["fileSize"] as? Int) > 0)
        #expect(try #require(compressed["duration"] as? Double) > 0.9)
        #expect(result["processingTime"] is Double)
        let encoding = try #require(result["encoding"] as? [String: Any])
        #expect(Set(encoding.keys) == [
            "constantRateFactor", "targetBitrate", "maxBitrate", "keyFrameInterval", "frameRate",
            "videoFilter", "hdr",
        ])
        #expect(encoding["hdr"] is NSNull, "an SDR source has no HDR entry")
    }

    @Test func noAudioHevcMovWithHumanSummary() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run([
            "compress", "clip.mp4", "--no-audio", "--format", "mov", "--codec", "hevc",
            "--max-dimension", "160", "--speed", "ultrafast",
        ], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        for text in ["clip.mp4 -> clip-compressed.mov", "size", "dimensions  320x180 -> 160x90",
                     "audio       none", "time"] {
            #expect(run.stdout.contains(text), "missing \(text):\n\(run.stdout)")
        }
        let info = try MediaInfo.probe(scratch.path("clip-compressed.mov"))
        #expect(info.primaryVideo?.codecName == "hevc")
        #expect(info.primaryAudio == nil)
        #expect(!info.streams.contains { $0.kind == .audio })
    }

    @Test func trimAndOutputDirectory() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "in/clip.mp4")
        let run = try await Reel.run([
            "compress", "in/clip.mp4", "--start", "0.25", "--end", "00:00:00.750",
            "--output-dir", "out", "--speed", "ultrafast", "--quiet",
        ], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try scratch.names(in: "out") == ["clip-compressed.mp4"])
        let info = try MediaInfo.probe(scratch.path("out/clip-compressed.mp4"))
        #expect(abs(info.duration - 0.5) < 0.1, "duration \(info.duration)")
    }

    @Test func existingOutputIsNeverReplacedWithoutOverwrite() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.silent, to: scratch.url, as: "clip.mp4")
        let existing = try scratch.write("keep me\n", to: "small.mp4")
        let refused = try await Reel.run(["compress", "clip.mp4", "-o", "small.mp4"], in: scratch.url)
        #expect(refused.status == 1)
        #expect(refused.stderr == "reel: small.mp4: already exists; pass --overwrite to replace it\n")
        #expect(try String(contentsOf: existing, encoding: .utf8) == "keep me\n")

        let replaced = try await Reel.run(
            ["compress", "clip.mp4", "-o", "small.mp4", "--overwrite", "--speed", "ultrafast",
             "--quiet"], in: scratch.url)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try MediaInfo.probe(existing).primaryVideo != nil)

        let same = try await Reel.run(
            ["compress", "clip.mp4", "-o", "./clip.mp4", "--overwrite"], in: scratch.url)
        #expect(same.status == 1)
        #expect(same.stderr.hasPrefix("reel: clip.mp4: the output would overwrite the input"))
        #expect(try scratch.names() == ["clip.mp4", "small.mp4"])
    }

    /// `--audio-track`: `all` and an existing number work; a number the file lacks fails naming
    /// the file and leaves nothing; anything else is a usage error.
    @Test func audioTrackChoice() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let fast = ["--speed", "ultrafast", "--no-content-aware", "--quiet", "--overwrite"]
        for choice in ["all", "1"] {
            let run = try await Reel.run(["compress", "clip.mp4", "--audio-track", choice] + fast, in: scratch.url)
            #expect(run.status == 0, "\(choice): \(run.stderr)")
            #expect(try MediaInfo.probe(scratch.path("clip-compressed.mp4")).audioStreams.count == 1)
        }
        try FileManager.default.removeItem(at: scratch.path("clip-compressed.mp4"))
        let missing = try await Reel.run(["compress", "clip.mp4", "--audio-track", "2"] + fast, in: scratch.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("clip.mp4") && missing.stderr.contains("no audio track 2"), "\(missing.stderr)")
        #expect(try scratch.names() == ["clip.mp4"])
        let bad = try await Reel.run(["compress", "clip.mp4", "--audio-track", "0"] + fast, in: scratch.url)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--audio-track"), "\(bad.stderr)")
    }

    /// `--target-size`: a share of the source lands under it with the report in JSON; sizes with
    /// units parse; a bit rate beside it or a bad size is a usage error.
    @Test func targetSize() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "clip.mp4")
        let sourceSize = try #require(
            (try FileManager.default.attributesOfItem(atPath: scratch.path("clip.mp4").path))[.size] as? NSNumber).int64Value
        let run = try await Reel.run(["compress", "clip.mp4", "--target-size", "30%", "--speed", "ultrafast", "--json", "--quiet"],
                               in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(try run.jsonObject()["result"] as? [String: Any])
        let report = try #require(result["targetSize"] as? [String: Any])
        let target = try #require(report["targetBytes"] as? Int)
        #expect(target == Int(sourceSize * 30 / 100))
        let written = try #require(
            (try FileManager.default.attributesOfItem(atPath: scratch.path("clip-compressed.mp4").path))[.size] as? NSNumber).intValue
        #expect(written <= target && report["achievedBytes"] as? Int == written)
        for (value, reason) in [("10x", "expected a size"), ("150%", "between 0 and 100%")] {
            let bad = try await Reel.run(["compress", "clip.mp4", "--target-size", value, "--overwrite"], in: scratch.url)
            #expect(bad.status == 2 && bad.stderr.contains(reason), "\(value): \(bad.stderr)")
        }
        let clash = try await Reel.run(["compress", "clip.mp4", "--target-size", "2MiB", "--bitrate", "1M", "--overwrite"], in: scratch.url)
        #expect(clash.status == 2 && clash.stderr.contains("drop --bitrate"), "\(clash.stderr)")
    }

    /// `--target-quality ssim:0.97`: per-shot rate factors in the JSON; a bad value or a
    /// bit rate beside it is a usage error.
    @Test func targetQuality() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "--target-quality", "ssim:0.97", "--speed", "ultrafast", "--json", "--quiet"],
                               in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(try run.jsonObject()["result"] as? [String: Any])
        let report = try #require(result["targetQuality"] as? [String: Any])
        #expect(report["metric"] as? String == "ssim" && report["target"] as? Double == 0.97)
        let segments = try #require(report["segments"] as? [[String: Any]])
        #expect(!segments.isEmpty && segments.allSatisfy { $0["constantRateFactor"] is Double })
        for value in ["ssim", "vmaf:90", "ssim:2"] {
            let bad = try await Reel.run(["compress", "clip.mp4", "--target-quality", value, "--overwrite"], in: scratch.url)
            #expect(bad.status == 2, "\(value): \(bad.stderr)")
        }
        let clash = try await Reel.run(["compress", "clip.mp4", "--target-quality", "psnr:40", "--bitrate", "1M", "--overwrite"], in: scratch.url)
        #expect(clash.status == 2 && clash.stderr.contains("drop --bitrate"), "\(clash.stderr)")
    }

    /// `--hdr`: a PQ source to H.264 is tone-mapped by default (said on the summary's `hdr`
    /// line and in the JSON), kept as High 10 with `--hdr keep`; an unknown mode is a usage error.
    @Test func hdrHandling() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.hdr, to: scratch.url, as: "hdr.mp4")
        let text = try await Reel.run(["compress", "hdr.mp4", "--codec", "h264", "-o", "sdr.mp4"], in: scratch.url)
        #expect(text.status == 0 && text.stdout.contains("tone-mapped PQ 1000 nits to SDR BT.709"), "\(text.stdout) \(text.stderr)")
        let keep = try await Reel.run(["compress", "hdr.mp4", "--codec", "h264", "--hdr", "keep", "-o", "keep.mp4", "--json", "--quiet"],
                                in: scratch.url)
        #expect(keep.status == 0, "\(keep.stderr)")
        let result = try #require(try keep.jsonObject()["result"] as? [String: Any])
        let hdr = try #require((result["encoding"] as? [String: Any])?["hdr"] as? [String: Any])
        #expect(hdr["toneMapped"] as? Bool == false && hdr["sourceTransfer"] as? String == "smpte2084")
        let bad = try await Reel.run(["compress", "hdr.mp4", "--hdr", "sdr", "-o", "bad.mp4"], in: scratch.url)
        #expect(bad.status == 2, "\(bad.stderr)")
    }

    @Test func unreadableInputFailsWithoutOutput() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("not a video\n", to: "notes.mp4")
        let run = try await Reel.run(["compress", "notes.mp4", "--json"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("reel: notes.mp4: cannot read as media"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        let object = try run.jsonObject()
        #expect(object["status"] as? String == "failed")
        #expect(object["result"] is NSNull)
        #expect(try scratch.names() == ["notes.mp4"])
    }

    /// An output bigger than its source says so plainly (not "0.78x smaller, -28% saved").
    @Test func aLargerOutputIsCalledLarger() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "--quality", "1", "--rate-control", "quality", "--speed", "ultrafast",
                                "--no-content-aware"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("larger than the source"), "\(run.stdout)")
        #expect(!run.stdout.contains("smaller") && !run.stdout.contains("saved"), "\(run.stdout)")
    }

    /// `--max-size` is the old name of `--max-dimension`; a value that looks like a file size
    /// gets a warning instead of a silently tiny video.
    @Test func maxSizeIsAPixelAliasThatWarnsOnTinyValues() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        var run = try await Reel.run(["compress", "clip.mp4", "--max-size", "25", "--speed", "ultrafast", "--json", "-o", "tiny.mp4"],
                               in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("not a file size") && run.stderr.contains("--max-dimension"), "\(run.stderr)")
        let result = try #require(try run.jsonObject()["result"] as? [String: Any])
        #expect((result["compressed"] as? [String: Any])?["width"] as? Int == 24)
        run = try await Reel.run(["compress", "clip.mp4", "--max-size", "160", "--speed", "ultrafast", "-o", "small.mp4"], in: scratch.url)
        #expect(run.status == 0 && !run.stderr.contains("not a file size"), "\(run.stderr)")
    }
}
