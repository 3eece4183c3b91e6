import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelCompression
@testable import ReelFrameReduction
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// AV1 (SVT-AV1) and VP9 (libvpx) outputs in MP4, WebM and Matroska, with Opus, read back with
/// our demuxer and ffprobe; AV1 sources decoded with libdav1d. The harness's `ultrafast` speed
/// is SVT-AV1 preset 13 (12 below 360p) and libvpx's realtime `cpu-used` 8, so each encode takes a moment.
@Suite(.timeLimit(.minutes(5))) struct AV1VP9Tests {
    /// ffprobe's view of the first stream of `kind` (`v` or `a`, `s`) of `url`.
    static func stream(_ url: URL, _ kind: String) throws -> [String: Any] {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "\(kind):0", "-show_streams"])
        return try #require((json["streams"] as? [[String: Any]])?.first)
    }

    /// The pixel format ffprobe reads from the coded stream (the decoder's, not a header's).
    static func decodedPixelFormat(_ url: URL) throws -> String {
        try Fixtures.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pix_fmt",
                                              "-read_intervals", "%+#1", "-of", "csv=p=0", url.path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func av1InMP4KeepsEveryFrameAndTheAAC() async throws {
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") { $0.videoCodec = .av1 }
        let video = try #require(output.primaryVideo)
        #expect(video.codecName == "av1")
        #expect(result.url.pathExtension == "mp4")
        #expect(video.frameCount == 90)
        #expect(abs((video.duration ?? 0) - 3) <= 1.0 / 30)
        #expect(output.primaryAudio?.codecName == "aac")
        let times = try Harness.videoFrameTimes(result.url)
        #expect(times.count == 90 && times.first == 0)
        #expect(result.analytics.videoCodec == "av1")
    }

    @Test(arguments: [VideoCodec.av1, .vp9])
    func webMWithOpusAt48kHz(codec: VideoCodec) async throws {
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.videoCodec = codec
            $0.audioCodec = .opus
            $0.fileType = .webm
        }
        #expect(result.url.pathExtension == "webm")
        #expect(output.primaryVideo?.codecName == codec.rawValue)
        let audio = try #require(output.primaryAudio)
        #expect(audio.codecName == "opus")
        #expect(audio.audio?.sampleRate == 48_000)
        let format = try Fixtures.ffprobe(result.url, ["-show_format"])["format"] as? [String: Any]
        #expect((format?["format_name"] as? String)?.contains("webm") == true)
        // Matroska stores neither stream lengths nor frame counts: the file lasts the source's
        // 3 s (Opus's 20 ms frames round the sound up), and every packet is counted, on the
        // 30 fps grid. The muxer moves the pictures 6.5 ms later, Opus's pre-skip, as the
        // ffmpeg CLI's WebM does too (millisecond timestamps).
        #expect(abs(output.duration - 3) < 0.03, "\(output.duration)")
        let times = try Harness.videoFrameTimes(result.url)
        #expect(times.count == 90)
        #expect(abs((times.first ?? 1) - 0.0065) < 0.001, "\(times.first ?? -1)")
        #expect(abs((times.last ?? 0) - (times.first ?? 0) - 89.0 / 30) < 0.002)
    }

    @Test func matroskaTakesAV1WithAACAndSubtitlesAsSRT() async throws {
        let (result, output, _) = try await Harness.compress("subtitles.mkv") {
            $0.videoCodec = .av1
            $0.fileType = .mkv
        }
        #expect(result.url.pathExtension == "mkv")
        #expect(output.primaryVideo?.codecName == "av1")
        #expect(output.primaryAudio?.codecName == "aac")
        let subtitle = try #require(output.streams.first { $0.kind == .subtitle })
        #expect(subtitle.codecName == "subrip")
        #expect(subtitle.language == "ger")
        #expect(try TrackChoiceTests.cues(result.url).map(\.text) == TrackChoiceTests.sourceCues.map(\.text))
    }

    @Test func webMCarriesTextSubtitlesAsWebVTT() async throws {
        let (result, output, _) = try await Harness.compress("subtitles.mkv") {
            $0.videoCodec = .vp9
            $0.audioCodec = .opus
            $0.fileType = .webm
        }
        let subtitle = try #require(output.streams.first { $0.kind == .subtitle })
        #expect(subtitle.codecName == "webvtt")
        // The Matroska source's streams start 21 ms late (see TrackChoiceTests); the cues keep
        // their times on the output's timeline.
        let cues = try TrackChoiceTests.cues(result.url)
        #expect(cues.map(\.text) == TrackChoiceTests.sourceCues.map(\.text))
        #expect(zip(cues, TrackChoiceTests.sourceCues).allSatisfy { abs($0.start - $1.start) < 0.05 }, "\(cues)")
    }

    @Test func webMRefusesCodecsItCannotHoldAndTheDefaultsSwapThem() async throws {
        let source = try Fixtures.clip("cfr_audio.mp4")
        var config = Harness.fastConfig(in: try Fixtures.scratchDirectory())
        config.fileType = .webm
        let h264 = await Harness.reelError { _ = try await VideoCompressor().compressVideo(source, config: config) }
        guard case .invalidConfiguration(let reason, _) = h264 else {
            Issue.record("expected invalidConfiguration, got \(String(describing: h264))")
            return
        }
        #expect(reason.contains("WebM") && reason.contains("h264"), "\(reason)")
        config.videoCodec = .vp9
        let aac = await Harness.reelError { _ = try await VideoCompressor().compressVideo(source, config: config) }
        #expect(aac?.description.contains("Opus") == true, "\(String(describing: aac))")
        config.videoCodec = .hevc
        config.applyWebMDefaults()
        #expect(config.videoCodec == .av1 && config.audioCodec == .opus)
        var chosen = config
        chosen.videoCodec = .vp9
        chosen.applyWebMDefaults()
        #expect(chosen.videoCodec == .vp9, "a WebM codec stays")
        var mov = Harness.fastConfig(in: try Fixtures.scratchDirectory())
        mov.fileType = .mov
        mov.videoCodec = .av1
        #expect(throws: ReelError.self) { try mov.validate() }
        var tenBitH264 = Harness.fastConfig(in: try Fixtures.scratchDirectory())
        tenBitH264.tenBit = true
        #expect(throws: ReelError.self) { try tenBitH264.validate() }
    }

    /// A stream copy keeps the source's codecs: H.264 and AAC into WebM are refused before any
    /// work, naming the codec; a VP9 + Opus WebM is copied into another WebM.
    @Test func streamCopyIntoWebMNeedsWebMCodecs() async throws {
        let error = await Harness.reelError {
            _ = try await Harness.compress("cfr_audio.mp4") {
                $0.streamCopy = true
                $0.fileType = .webm
            }
        }
        #expect(error?.description.contains("h264") == true && error?.description.contains("WebM") == true,
                "\(String(describing: error))")
        let (webm, _, directory) = try await Harness.compress("cfr_audio.mp4") {
            $0.videoCodec = .vp9
            $0.audioCodec = .opus
            $0.fileType = .webm
        }
        var config = Harness.fastConfig(in: directory)
        config.streamCopy = true
        config.fileType = .webm
        config.outputURL = directory.appendingPathComponent("copied.webm")
        let copied = try await VideoCompressor().compressVideo(webm.url, config: config)
        let output = try MediaInfo.probe(copied.url)
        #expect(output.primaryVideo?.codecName == "vp9" && output.primaryAudio?.codecName == "opus")
    }

    @Test func trimAndFrameReductionWithAV1() async throws {
        let (_, trimmed, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.videoCodec = .av1
            $0.trimStartTime = MediaTime(value: 1, timescale: 2)
            $0.trimEndTime = MediaTime(value: 2, timescale: 1)
        }
        #expect(trimmed.primaryVideo?.frameCount == 45)
        #expect(abs((trimmed.primaryVideo?.duration ?? 0) - 1.5) < 1e-3)
        #expect(abs((trimmed.primaryAudio?.duration ?? 0) - 1.5) < 0.03)
        let (result, reduced, _) = try await Harness.compress("fast60.mp4") {
            $0.videoCodec = .vp9
            $0.fileType = .mkv
            $0.fps = 30
        }
        #expect(reduced.primaryVideo?.codecName == "vp9")
        let times = try Harness.videoFrameTimes(result.url)
        #expect(times.count == 120)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 2e-3 })
    }

    @Test func highlightReelInAV1() async throws {
        let (result, output, _) = try await Harness.compress("story.mp4") {
            $0.videoCodec = .av1
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 6))
        }
        let kept = result.analytics.keptRanges
        let total = kept.map(\.duration.seconds).reduce(0, +)
        #expect(!kept.isEmpty && total <= 6 + 1e-3)
        #expect(output.primaryVideo?.codecName == "av1")
        #expect(abs((output.primaryVideo?.duration ?? 0) - total) <= 1.0 / 25 + 1e-3, "\(kept)")
    }

    @Test func tenBitAV1FromAnEightBitSource() async throws {
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.videoCodec = .av1
            $0.tenBit = true
            $0.audioBitrate = 0
        }
        #expect(output.primaryVideo?.video?.bitDepth == 10)
        #expect(try Self.decodedPixelFormat(result.url) == "yuv420p10le")
    }

    /// hdr_pq.mp4 is 10-bit BT.2020 PQ with mastering metadata: AV1 in MP4 and VP9 (profile 2)
    /// in WebM keep all of it by default, as HEVC does.
    @Test(arguments: [(VideoCodec.av1, OutputFileType.mp4), (.vp9, .webm)])
    func hdrIsKept(codec: VideoCodec, fileType: OutputFileType) async throws {
        let (result, output, _) = try await Harness.compress("hdr_pq.mp4") {
            $0.videoCodec = codec
            $0.fileType = fileType
            $0.audioCodec = .opus
            $0.maxLongerDimension = 320
        }
        let picture = try #require(output.primaryVideo?.video)
        #expect(picture.bitDepth == 10)
        #expect(picture.color.transfer == "smpte2084" && picture.color.primaries == "bt2020", "\(picture.color)")
        #expect(result.analytics.encoding?.hdr?.toneMapped == false)
        #expect(try Self.decodedPixelFormat(result.url) == "yuv420p10le")
        #expect(picture.hdr?.hasMasteringDisplay == true, "\(String(describing: picture.hdr))")
    }

    @Test func targetSizeWithAV1InOnePass() async throws {
        let source = try Fixtures.clip("cfr_audio.mp4")
        let target: Int64 = 160_000
        let (result, _, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.videoCodec = .av1
            $0.targetFileSize = .bytes(target)
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: result.url.path)[.size] as? Int64)
        #expect(size <= target, "\(size) bytes for \(target)")
        #expect(Double(size) >= 0.6 * Double(target), "\(size) bytes for \(target)")
        let frames = try MediaInfo.probe(source).primaryVideo?.frameCount
        #expect(try MediaInfo.probe(result.url).primaryVideo?.frameCount == frames)
    }

    /// VP9 to a target size in two passes (libvpx's statistics kept through the codec context),
    /// its first second pass within 10% of the target: with each picture taken to last one tick
    /// of the 1/15360 time base, the first pass recorded 15 360 fps and the second spent a
    /// 512th of the bits per picture. The realtime deadline (`ultrafast`) makes no first-pass
    /// statistics and encodes once. Neither leaves its statistics folder behind.
    @Test(arguments: [(EncoderSpeed.medium, true), (.ultrafast, false)])
    func targetSizeWithVP9(speed: EncoderSpeed, twoPasses: Bool) async throws {
        let target: Int64 = 160_000
        let (result, _, directory) = try await Harness.compress("cfr_audio.mp4") {
            $0.videoCodec = .vp9
            $0.fileType = .webm
            $0.audioCodec = .opus
            $0.encoderSpeed = speed
            $0.targetFileSize = .bytes(target)
        }
        let report = try #require(result.analytics.targetSize)
        #expect(report.encodes == report.attempts.count + (twoPasses ? 1 : 0), "\(report.attempts)")
        #expect(report.achievedBytes <= target && Double(report.achievedBytes) >= 0.9 * Double(target), "\(report.attempts)")
        let first = try #require(report.attempts.first?.last)
        #expect(abs(Double(first) / Double(target) - 1) <= 0.1, "\(report.attempts)")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "\(hidden)")
    }

    /// AV1 sources decode with libdav1d: an AV1 output is analysed and re-encoded to H.264.
    @Test func av1SourcesDecodeWithDav1d() async throws {
        #expect(DecoderChoice.decoderName(forCodec: "av1") == "libdav1d")
        let (av1, _, directory) = try await Harness.compress("story.mp4") {
            $0.videoCodec = .av1
            $0.trimEndTime = MediaTime(value: 12, timescale: 1)
        }
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: av1.url))
        #expect(analysis.shots.count >= 2)
        #expect(abs(analysis.duration - 12) < 0.1)
        var config = Harness.fastConfig(in: directory)
        config.outputURL = directory.appendingPathComponent("from-av1.mp4")
        let again = try await VideoCompressor().compressVideo(av1.url, config: config)
        let output = try MediaInfo.probe(again.url)
        #expect(output.primaryVideo?.codecName == "h264")
        let frames = try MediaInfo.probe(av1.url).primaryVideo?.frameCount
        #expect(output.primaryVideo?.frameCount == frames)
        #expect(again.analytics.damagedFrames == 0)
    }

    @Test func speedsAndRateFactorsMapOntoEachEncodersScale() {
        #expect(VideoCodec.av1.speedSetting(.ultrafast) == "13")
        #expect(VideoCodec.av1.speedSetting(.medium) == "8")
        #expect(VideoCodec.vp9.speedSetting(.ultrafast) == "realtime:8")
        #expect(VideoCodec.h264.speedSetting(.slow) == "slow")
        let speeds = EncoderSpeed.allCases.compactMap { Int(VideoCodec.av1.speedSetting($0)) }
        #expect(speeds.count == EncoderSpeed.allCases.count && zip(speeds, speeds.dropFirst()).allSatisfy { $0 >= $1 })
        for codec in [VideoCodec.av1, .vp9] {
            let low = CompressionPlanner.constantRateFactor(quality: 0, codec: codec)
            let high = CompressionPlanner.constantRateFactor(quality: 1, codec: codec)
            #expect(high < low && (0...63).contains(high) && (0...63).contains(low))
        }
        #expect(WebCodecOptions.tileColumns(width: 1280) == 2 && WebCodecOptions.tileColumns(width: 320) == 0)
    }
}

/// The two presets of AV1: `archive` and `web`, encoded at the harness's speed.
@Suite(.timeLimit(.minutes(5))) struct AV1PresetTests {
    @Test func archiveIsTenBitAV1WithOpusInMatroska() async throws {
        let preset = try #require(Preset.named("archive"))
        #expect(preset.config.videoCodec == .av1 && preset.config.tenBit && preset.config.encoderSpeed == .slow)
        #expect(!preset.config.useExplicitBitrate)
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") { config in
            let directory = config.outputDirectory
            config = preset.config
            config.outputDirectory = directory
            config.encoderSpeed = .ultrafast
        }
        #expect(result.url.pathExtension == "mkv")
        #expect(output.primaryVideo?.codecName == "av1" && output.primaryVideo?.video?.bitDepth == 10)
        #expect(output.primaryAudio?.codecName == "opus" && output.primaryAudio?.audio?.sampleRate == 48_000)
        #expect(try Harness.videoFrameTimes(result.url).count == 90)
    }

    @Test func webIsAV1WithOpusInWebMWithAKeyframeEveryTwoSeconds() async throws {
        let preset = try #require(Preset.named("web"))
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") { config in
            let directory = config.outputDirectory
            config = preset.config
            config.outputDirectory = directory
            config.encoderSpeed = .ultrafast
            config.contentAwareOptimization = false
        }
        #expect(result.url.pathExtension == "webm")
        #expect(output.primaryVideo?.codecName == "av1" && output.primaryAudio?.codecName == "opus")
        // 90 frames with keyframes at most 60 apart: 0 and 60 (or earlier).
        #expect(try Harness.keyframeCount(result.url) >= 2)
    }
}
