import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia

/// Every preset on a 2048x1152 60 fps source: size, rate, codec and bit rate read back.
@Suite(.timeLimit(.minutes(5))) struct PresetCompressionTests {
    @Test(arguments: [
        (VideoQuality.lowQuality, 640, 360, 20.0, 1, VideoCodec.h264),
        (.mediumQuality, 1280, 720, 30, 2, .h264),
        (.highQuality, 1920, 1080, 30, 2, .hevc),
        (.socialMedia, 1280, 720, 30, 2, .h264),
        (.messaging, 854, 480, 24, 1, .h264),
    ])
    func presetShapesTheOutput(quality: VideoQuality, width: Int, height: Int, fps: Double, channels: Int, codec: VideoCodec) async throws {
        let source = try Fixtures.clip("preset_source.mp4")
        let directory = try Fixtures.scratchDirectory("preset-\(quality.presetName)")
        let result = try await VideoCompressor().compressVideo(source, quality: quality, outputDirectory: directory)
        let output = try MediaInfo.probe(result.url)
        let video = try #require(output.primaryVideo?.video)
        #expect(video.width == width && video.height == height)
        #expect(abs(video.frameRate - fps) < 0.01)
        #expect(output.primaryVideo?.codecName == codec.rawValue)
        let audio = try #require(output.primaryAudio?.audio)
        #expect(audio.channels == channels)
        #expect(audio.sampleRate == 44_100)
        // 1.5 s at the frame rate, within one frame.
        #expect(abs((output.primaryVideo?.duration ?? 0) - 1.5) <= 1 / fps + 1e-6)
        // Capped quality: the VBV buffer is twice the cap, so 1.5 s may hold at most
        // (1.5 + 2) / 1.5 times the cap on average; well below it on this clip.
        let cap = Double(quality.defaultConfig.videoBitrate)
        let analytics = result.analytics
        #expect(analytics.compressedVideoBitrate > 0)
        #expect(analytics.compressedVideoBitrate <= cap * 3.5 / 1.5)
        #expect(analytics.encoding?.maxBitrate.map { Double($0) <= cap * 1.21 } == true)
        #expect(analytics.compressedFileSize < analytics.originalFileSize)
        #expect(analytics.compressedDimensions == VideoDimensions(width: width, height: height))
        #expect(analytics.originalDimensions == VideoDimensions(width: 2048, height: 1152))
        #expect(analytics.videoCodec == codec.rawValue)
        // Measured, not targets: matches what ffprobe reads from the file.
        let probe = try Fixtures.ffprobe(result.url, ["-show_streams"])
        let streams = probe["streams"] as? [[String: Any]] ?? []
        let ffprobeRate = (streams.first { $0["codec_type"] as? String == "video" }?["bit_rate"] as? String).flatMap(Double.init)
        #expect(ffprobeRate.map { abs($0 - analytics.compressedVideoBitrate) / $0 < 0.01 } == true)
        if quality == .highQuality {
            #expect(streams.first?["codec_tag_string"] as? String == "hvc1")
        }
    }
}
