import Foundation
import Testing
@testable import ReelCompression
@testable import ReelFrameReduction
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// The planner's decisions on synthetic sources: no media needed.
@Suite(.timeLimit(.minutes(5))) struct CompressionPlannerTests {
    static func source(width: Int = 1920, height: Int = 1080, rotation: Int = 0, fps: Double = 30,
                       videoBitrate: Int64 = 8_000_000, duration: Double = 10, bitDepth: Int = 8,
                       audio: Bool = true) -> MediaInfo {
        let video = StreamInfo(
            index: 0, kind: .video, role: .primaryVideo, codecName: "h264", profile: nil, bitRate: videoBitrate,
            duration: duration, frameCount: Int64(duration * fps), handlerName: nil,
            video: VideoStreamInfo(width: width, height: height, rotation: rotation, frameRate: fps, baseFrameRate: fps,
                                   isVariableFrameRate: false, pixelFormat: bitDepth > 8 ? "yuv420p10le" : "yuv420p",
                                   bitDepth: bitDepth, color: ColorInfo(), hdr: nil),
            audio: nil)
        var streams = [video]
        if audio {
            streams.append(StreamInfo(
                index: 1, kind: .audio, role: .primaryAudio, codecName: "aac", profile: nil, bitRate: 128_000,
                duration: duration, frameCount: nil, handlerName: nil, video: nil,
                audio: AudioStreamInfo(sampleRate: 48_000, channels: 2, channelLayout: "stereo", sampleFormat: "fltp")))
        }
        return MediaInfo(url: URL(fileURLWithPath: "/tmp/source.mp4"), containerName: "mov,mp4", duration: duration,
                         startTime: 0, fileSize: 10_000_000, bitRate: 8_000_000, streams: streams,
                         primaryVideoStreamIndex: 0, primaryAudioStreamIndex: audio ? 1 : nil)
    }

    static func decide(_ source: MediaInfo, _ configure: (inout CompressionConfig) -> Void) throws -> CompressionPlanner.Decision {
        var config = CompressionConfig()
        configure(&config)
        let planner = CompressionPlanner(source: source, config: config, reducer: ReduceFrameEvenlySpaced())
        return try planner.decide(outputPath: "/tmp/out.mp4", ranges: planner.keptRanges(), content: nil)
    }

    @Test(arguments: [
        (1920, 1080, 0, 1280, "scale=1280:720"),
        (1080, 1920, 0, 1280, "scale=720:1280"),
        (1920, 1080, 90, 1280, "scale=1280:720"),  // coded landscape, shown portrait: matrix carried
        (641, 361, 0, 4000, "scale=640:360"),  // never upscaled, made even
        (1920, 1080, 0, 853, "scale=852:480"),  // even, aspect kept
    ])
    func scalesTheLongerVisibleSide(width: Int, height: Int, rotation: Int, limit: Int, scale: String) throws {
        let decision = try Self.decide(Self.source(width: width, height: height, rotation: rotation)) {
            $0.maxLongerDimension = limit
        }
        #expect(decision.plan.videoFilter.hasPrefix(scale + ":flags=bicubic"))
        #expect(decision.plan.outputRotation == rotation)
    }

    @Test func forcedVisualDimensionsRotateThePixels() throws {
        let decision = try Self.decide(Self.source(width: 1920, height: 1080, rotation: 90)) {
            $0.maxLongerDimension = 1280
            $0.forceVisualEncodingDimensions = true
        }
        #expect(decision.plan.videoFilter.hasPrefix("transpose=clock,scale=720:1280"))
        #expect(decision.plan.outputRotation == 0)
    }

    @Test func requestAboveTheSourceBitrateIsClamped() throws {
        let decision = try Self.decide(Self.source(videoBitrate: 1_000_000)) { $0.videoBitrate = 5_000_000 }
        #expect(decision.plan.video.maxBitRate == 800_000)
        let within = try Self.decide(Self.source(videoBitrate: 1_000_000)) { $0.videoBitrate = 1_100_000 }
        #expect(within.plan.video.maxBitRate == 1_100_000)
        // A nearly empty source (10 kb/s) is not starved: 0.005 bits per pixel of 1280x720 at 30 fps.
        let starved = try Self.decide(Self.source(videoBitrate: 10_000)) { $0.videoBitrate = 5_000_000; $0.maxLongerDimension = 1280 }
        #expect(starved.plan.video.maxBitRate == 138_240)
    }

    /// A low-bit-rate 720p film (542 kb/s) made smaller for messaging (854x480, 1 Mb/s cap): the
    /// cap follows what the source spends on the smaller picture, 542k x (854x480 / 1280x720)^0.75
    /// = 295 kb/s, times 0.8; it was 0.8x the source's whole rate (434 kb/s), so the output came
    /// out barely smaller than the source.
    @Test func theClampFollowsTheSmallerPicture() throws {
        let decision = try Self.decide(Self.source(width: 1280, height: 720, fps: 24, videoBitrate: 542_000)) {
            $0.videoBitrate = 1_000_000
            $0.maxLongerDimension = 854
            $0.fps = 24
        }
        let expected = 0.8 * 542_000 * pow(854.0 * 480 / (1280 * 720), 0.75)
        let cap = Double(try #require(decision.plan.video.maxBitRate))
        #expect(abs(cap - expected) < 2_000, "\(cap) vs \(expected)")
        #expect(cap < 250_000)
    }

    @Test func adaptiveBitrateFollowsThePixelRate() throws {
        // 1080p30 at 8 Mbps scaled to 960x540 at 15 fps: an eighth of the pixel rate -> 1 Mbps.
        let decision = try Self.decide(Self.source(videoBitrate: 8_000_000)) {
            $0.videoBitrate = 4_000_000
            $0.useAdaptiveBitrate = true
            $0.maxLongerDimension = 960
            $0.fps = 15
        }
        #expect(decision.plan.video.maxBitRate == 1_000_000)
    }

    @Test func rateModes() throws {
        let capped = try Self.decide(Self.source()) { $0.videoBitrate = 2_000_000; $0.videoQuality = 0.5 }
        #expect(capped.plan.video.constantRateFactor == 28)
        #expect(capped.plan.video.maxBitRate == 2_000_000)
        #expect(capped.plan.video.bufferSize == 4_000_000)
        let average = try Self.decide(Self.source()) { $0.bitrateMode = .average; $0.videoBitrate = 2_000_000 }
        #expect(average.plan.video.constantRateFactor == nil)
        #expect(average.plan.video.averageBitRate == 2_000_000)
        let quality = try Self.decide(Self.source()) { $0.useExplicitBitrate = false; $0.videoQuality = 1 }
        #expect(quality.plan.video.constantRateFactor == 16)
        #expect(quality.plan.video.maxBitRate == nil)
        let hevc = try Self.decide(Self.source()) { $0.useExplicitBitrate = false; $0.videoQuality = 1; $0.videoCodec = .hevc }
        #expect(hevc.plan.video.constantRateFactor == 19)
    }

    @Test func frameRateIsReducedNeverRaised() throws {
        let reduced = try Self.decide(Self.source(fps: 60)) { $0.fps = 24 }
        #expect(reduced.plan.targetFrameRate == 24)
        #expect(reduced.plan.video.frameRate == 24)
        let kept = try Self.decide(Self.source(fps: 25)) { $0.fps = 30 }
        #expect(kept.plan.targetFrameRate == nil)
        #expect(kept.plan.video.frameRate == 25)
    }

    @Test func audioFollowsTheConfigAndNeverUpsamples() throws {
        let mono = try Self.decide(Self.source()) { $0.audioChannels = 1; $0.audioSampleRate = 96_000 }
        #expect(mono.plan.audioTracks.first?.settings == AudioEncoderSettings(encoderName: "aac", sampleRate: 48_000, channels: 1, bitRate: 128_000))
        let dropped = try Self.decide(Self.source()) { $0.audioBitrate = 0 }
        #expect(dropped.plan.audioTracks.isEmpty)
        #expect(dropped.droppedTracks.map(\.index) == [1])
        let silent = try Self.decide(Self.source(audio: false)) { _ in }
        #expect(silent.plan.audioTracks.isEmpty)
    }

    @Test(arguments: [(-1.0, 5.0), (5.0, 5.0), (6.0, 5.0), (2.0, 11.0), (10.0, nil)] as [(Double, Double?)])
    func invalidTrimTimesAreRejected(start: Double, end: Double?) throws {
        #expect(throws: ReelError.self) {
            _ = try Self.decide(Self.source(duration: 10)) {
                $0.trimStartTime = MediaTime(seconds: start, timescale: 1000)
                $0.trimEndTime = end.map { MediaTime(seconds: $0, timescale: 1000) }
            }
        }
    }

    @Test func validTrimBecomesTheRange() throws {
        let decision = try Self.decide(Self.source(duration: 10)) {
            $0.trimStartTime = MediaTime(value: 1500, timescale: 1000)
            $0.trimEndTime = MediaTime(value: 4, timescale: 1)
        }
        let range = try #require(decision.plan.ranges.first)
        #expect(decision.plan.ranges.count == 1)
        #expect(range.start == MediaTime(value: 3, timescale: 2))
        #expect(range.end == MediaTime(value: 4, timescale: 1))
        #expect(range.needsSeek && range.endsEarly)
        #expect(decision.keptRanges == [TimeRange(start: MediaTime(value: 3, timescale: 2), end: MediaTime(value: 4, timescale: 1))])
    }

    static func seconds(_ start: Double, _ end: Double) -> TimeRange {
        TimeRange(start: MediaTime(seconds: start, timescale: 1000), end: MediaTime(seconds: end, timescale: 1000))
    }

    @Test(arguments: [
        ([(-1.0, 2.0)], "starts before"),
        ([(1.0, 1.0)], "is empty"),
        ([(3.0, 2.0)], "is empty"),
        ([(8.0, 11.0)], "beyond the end"),
        ([(1.0, 3.0), (2.5, 4.0)], "overlaps range 1"),
        ([], "empty"),
    ] as [([(Double, Double)], String)])
    func badRangeListsAreRejectedWithTheRangeNamed(ranges: [(Double, Double)], reason: String) throws {
        do {
            _ = try Self.decide(Self.source(duration: 10)) { $0.trim = .ranges(ranges.map { Self.seconds($0.0, $0.1) }) }
            Issue.record("accepted \(ranges)")
        } catch {
            guard case .invalidRanges(let message) = error as? ReelError else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(message.contains(reason), "\(message)")
        }
    }

    @Test func rangeListsKeepTheirOrder() throws {
        let decision = try Self.decide(Self.source(duration: 10)) {
            $0.trim = .ranges([Self.seconds(6, 8), Self.seconds(1.5, 4)])
        }
        #expect(decision.plan.ranges.map(\.start.seconds) == [6, 1.5])
        #expect(decision.plan.ranges.allSatisfy { $0.needsSeek })
        #expect(decision.keptRanges == [Self.seconds(6, 8), Self.seconds(1.5, 4)])
    }

    @Test func tenBitSourcesStayTenBitInHEVCOnly() throws {
        let hevc = try Self.decide(Self.source(bitDepth: 10)) { $0.videoCodec = .hevc }
        #expect(hevc.plan.videoFilter.hasSuffix("format=yuv420p10le"))
        let h264 = try Self.decide(Self.source(bitDepth: 10)) { $0.videoCodec = .h264 }
        #expect(h264.plan.videoFilter.hasSuffix("format=yuv420p"))
    }

    @Test func contentAdjustmentChangesKeyframesAndRate() throws {
        let calm = ContentAwareTuning.adjustment(for: ContentProfile(motion: 0.001, detail: 0.01, samples: 6))
        #expect(calm.category == "static")
        let planner = CompressionPlanner(source: Self.source(), config: CompressionConfig(), reducer: ReduceFrameEvenlySpaced())
        let decision = try planner.decide(outputPath: "/tmp/out.mp4", ranges: planner.keptRanges(), content: calm)
        #expect(decision.plan.video.keyFrameInterval == 120)
        #expect(decision.plan.video.maxBitRate == 1_400_000)
        let busy = ContentAwareTuning.adjustment(for: ContentProfile(motion: 0.2, detail: 0.1, samples: 6))
        #expect(busy.category == "busy")
        #expect(abs(busy.bitrateFactor - 1.32) < 1e-9)
        #expect(busy.constantRateFactorOffset == 1)
    }

    @Test func keptDurationFollowsTheTrim() {
        let source = Self.source(duration: 10)
        var config = CompressionConfig()
        #expect(config.keptDuration(of: source) == 10)
        config.trimStartTime = MediaTime(value: 2, timescale: 1)
        #expect(config.keptDuration(of: source) == 8)
        config = CompressionConfig()
        config.trim = .ranges([Self.seconds(1, 3), Self.seconds(5, 6)])
        #expect(config.keptDuration(of: source) == 3)
        config.trim = .ranges([Self.seconds(8, 12)])
        #expect(config.keptDuration(of: source) == nil, "a range beyond the end does not fit")
        config.trim = .highlights(HighlightReelOptions(maximumDuration: 4))
        #expect(config.keptDuration(of: source) == 4)
        config.trim = .highlights(HighlightReelOptions())
        #expect(config.keptDuration(of: source) == nil)
    }

    @Test func configValidation() {
        var config = CompressionConfig()
        config.videoQuality = 1.5
        #expect(throws: ReelError.self) { try config.validate() }
        config = CompressionConfig()
        config.audioChannels = 6
        #expect(throws: ReelError.self) { try config.validate() }
        config = CompressionConfig()
        config.fps = 0
        #expect(throws: ReelError.self) { try config.validate() }
        #expect(throws: Never.self) { try CompressionConfig().validate() }
    }

    /// x265 under a VBV cap may raise the rate factor by at most 4 (its keyframes starved
    /// otherwise); without a cap, or in average mode, nothing limits it.
    @Test func x265KeepsItsKeyframesUnderACap() throws {
        let capped = try Self.decide(Self.source()) { $0.videoCodec = .hevc; $0.videoBitrate = 5_000_000; $0.videoQuality = 0.65 }
        let crf = try #require(capped.plan.video.constantRateFactor)
        #expect(Encoder.x265Parameters(for: capped.plan.video).contains(String(format: "crf-max=%.2f", crf + 4)))
        let free = try Self.decide(Self.source()) { $0.videoCodec = .hevc; $0.useExplicitBitrate = false }
        #expect(!Encoder.x265Parameters(for: free.plan.video).contains { $0.hasPrefix("crf-max") })
    }
}
