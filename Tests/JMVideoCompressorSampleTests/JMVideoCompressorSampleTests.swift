import Foundation
import ReelKit
import Testing

/// Runs JMVideoCompressor's README examples (ReadmeSamples.swift) on a real clip.
@Suite(.serialized, .timeLimit(.minutes(5))) struct JMVideoCompressorSampleTests {
    /// A 2 s 320x180 clip with stereo sound, made with the ffmpeg CLI.
    static func clip() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jm-readme-\(UUID().uuidString.prefix(8)).mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2",
                             "-f", "lavfi", "-i", "sine=f=440:r=48000:d=2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                             "-c:a", "aac", "-ac", "2", url.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return url
    }

    static func files(in directory: URL, prefix: String) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(prefix) })
    }

    @Test func thePresetAndCustomExamplesWriteTheirFiles() async throws {
        let source = try Self.clip()
        defer { try? FileManager.default.removeItem(at: source) }
        let (compressor, placeholder) = readmeStep2()
        #expect(placeholder.path == "/path/to/your/input/video.mp4")
        let presetDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("CompressedVideos")
        let before = Self.files(in: presetDirectory, prefix: source.deletingPathExtension().lastPathComponent)
        await readmeStep3(compressor: compressor, sourceVideoURL: source)
        let written = Self.files(in: presetDirectory, prefix: source.deletingPathExtension().lastPathComponent).subtracting(before)
        #expect(written.count == 1, "\(written)")
        for name in written {
            let info = try MediaInfo.probe(presetDirectory.appendingPathComponent(name))
            #expect(info.primaryVideo?.codecName == "h264" && info.primaryAudio != nil)
            try? FileManager.default.removeItem(at: presetDirectory.appendingPathComponent(name))
        }
        // Step 4 asks for HE-AAC, which Debian's FFmpeg cannot encode (no libfdk_aac): the
        // example ends in its error branch and writes nothing. With AAC-LC the same settings
        // give HEVC, mono, 24 fps.
        let temporary = FileManager.default.temporaryDirectory
        let customBefore = Self.files(in: temporary, prefix: "custom_compressed_")
        await readmeStep4(compressor: compressor, sourceVideoURL: source)
        #expect(Self.files(in: temporary, prefix: "custom_compressed_").subtracting(customBefore).isEmpty)
        await #expect {
            var heAAC = CompressionConfig.default
            heAAC.audioCodec = .aac_he_v1
            _ = try await compressor.compressVideo(source, config: heAAC)
        } throws: { error in
            if case JMVideoCompressorError.underlyingError(.codecNotSupported("aac_he_v1", _)) = error { return true }
            return false
        }
        await readmeStep4(compressor: compressor, sourceVideoURL: source, audioCodec: .aac)
        let custom = Self.files(in: temporary, prefix: "custom_compressed_").subtracting(customBefore)
        #expect(custom.count == 1, "\(custom)")
        for name in custom {
            let info = try MediaInfo.probe(temporary.appendingPathComponent(name))
            #expect(info.primaryVideo?.codecName == "hevc")
            #expect(info.primaryAudio?.audio?.channels == 1)
            #expect(abs((info.primaryVideo?.video?.frameRate ?? 0) - 24) < 0.1)
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    @Test func cancellingAndTheFrameReducerExample() async throws {
        let source = try Self.clip()
        defer { try? FileManager.default.removeItem(at: source) }
        let (compressor, _) = readmeStep2()
        // Step 5 cancels at once: the task ends (with .cancelled, or done if it was quicker).
        await readmeStep5(compressor: compressor, sourceVideoURL: source).value
        var lowFPS = CompressionConfig.default
        lowFPS.fps = 15
        lowFPS.outputDirectory = FileManager.default.temporaryDirectory
        let result = try await readmeFrameReducerExample(compressor: JMVideoCompressor(), sourceVideoURL: source, myLowFPSConfig: lowFPS)
        defer { try? FileManager.default.removeItem(at: result.url) }
        #expect(abs(result.analytics.compressedFrameRate - 15) < 0.6, "\(result.analytics.compressedFrameRate)")
        // A missing file is JMVideoCompressor's .invalidSourceURL.
        await #expect {
            try await JMVideoCompressor().compressVideo(URL(fileURLWithPath: "/nonexistent/clip.mp4"), quality: .lowQuality)
        } throws: { error in
            if case JMVideoCompressorError.invalidSourceURL = error { return true }
            return false
        }
    }

    /// The README's optional trim lines, as written there but for the times (the clip lasts 2 s):
    /// `CMTime(seconds:preferredTimescale:)` is a `MediaTime`.
    @Test func theReadmesTrimLinesTrim() async throws {
        let source = try Self.clip()
        defer { try? FileManager.default.removeItem(at: source) }
        var customConfig = CompressionConfig.default
        customConfig.trimStartTime = CMTime(seconds: 0.5, preferredTimescale: 600) // Optional: Start trimming at 0.5 seconds
        customConfig.trimEndTime = CMTime(seconds: 1.5, preferredTimescale: 600)   // Optional: End trimming at 1.5 seconds
        customConfig.outputDirectory = FileManager.default.temporaryDirectory
        let result = try await JMVideoCompressor().compressVideo(source, config: customConfig)
        defer { try? FileManager.default.removeItem(at: result.url) }
        let duration = try MediaInfo.probe(result.url).duration
        #expect(abs(duration - 1) < 0.1, "\(duration)")
        #expect(CMTimeGetSeconds(customConfig.trimStartTime ?? .zero) == 0.5)
    }
}
