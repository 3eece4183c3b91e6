import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia

/// One timeline for the whole API: zero is the file's start (its first presented frame), for
/// analysis, ranges, reels, thumbnails and faces alike, whatever the container's clock says.
/// story.ts is story.mp4 in MPEG-TS, whose clock starts at 1.445 s (video at 1.467 s).
@Suite(.timeLimit(.minutes(5))) struct TimelineTests {
    @Test func analysisTimesCountFromTheFilesStart() async throws {
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: try Fixtures.clip("story.ts")))
        let cuts = analysis.boundaries.filter { $0.kind == .cut }.map(\.time.seconds)
        #expect(cuts.count == AnalyzerTests.cuts.count, "\(cuts)")
        // Video starts 21 ms after the audio, so its frames sit 0.021 s after the MP4's.
        for (found, expected) in zip(cuts, AnalyzerTests.cuts) {
            #expect(abs(found - expected) < 0.05, "cuts \(cuts)")
        }
        #expect((analysis.shots.first?.start.seconds ?? 99) < 0.05)
        #expect(abs((analysis.segments.last?.timeRange.end.seconds ?? 0) - 24) < 0.1)
        #expect((analysis.keyFrame?.seconds ?? 99) < 24)
    }

    @Test func aHighlightReelOfATransportStreamWorks() async throws {
        let (result, output, _) = try await Harness.compress("story.ts") {
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 4), analyzer: VideoAnalyzer())
        }
        let kept = result.analytics.keptRanges
        #expect(!kept.isEmpty && kept.allSatisfy { $0.start.seconds >= 0 && $0.end.seconds <= 24.1 }, "\(kept)")
        #expect(abs(output.duration - 4) < 0.2, "\(output.duration)")
    }

    @Test func thumbnailTimesCountFromTheFilesStart() async throws {
        let directory = try Fixtures.scratchDirectory()
        let result = try await Thumbnailer(analyzer: VideoAnalyzer()).thumbnail(
            of: try Fixtures.clip("story.ts"), at: MediaTime(value: 5, timescale: 1), to: directory.appendingPathComponent("at5.jpg"))
        let shown = try #require(result.times.first).seconds
        #expect(shown <= 5 && shown > 5 - 0.05, "the frame on screen at 5 s starts at \(shown)")
    }

    /// onekey.ts has one keyframe: a seek lands where nothing decodes, so the range is decoded
    /// from the start instead (its frames before the range dropped).
    @Test func aRangeOfAOneKeyframeTransportStreamDecodes() async throws {
        let (result, output, _) = try await Harness.compress("onekey.ts") {
            $0.trimStartTime = MediaTime(value: 1, timescale: 1)
            $0.trimEndTime = MediaTime(value: 5, timescale: 2)
        }
        #expect(abs(output.duration - 1.5) < 0.05, "\(output.duration)")
        #expect(abs(result.analytics.compressedFrameCount - 38) <= 1, "\(result.analytics.compressedFrameCount)")
        let directory = try Fixtures.scratchDirectory()
        let thumbnail = try await Thumbnailer(analyzer: VideoAnalyzer()).thumbnail(
            of: try Fixtures.clip("onekey.ts"), at: MediaTime(value: 1, timescale: 1), to: directory.appendingPathComponent("at1.jpg"))
        let shown = try #require(thumbnail.times.first).seconds
        #expect(shown <= 1 && shown > 1 - 0.05, "\(shown)")
    }

    /// primed.webm's audio starts 7 ms before the file's video and no stream states a length:
    /// the analysis must end where the file ends, so its highlight reel fits inside it.
    @Test func aWebMWhoseAudioStartsFirstMakesAReel() async throws {
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: try Fixtures.clip("primed.webm")))
        #expect(abs((analysis.segments.last?.timeRange.end.seconds ?? 0) - 3.008) < 0.01, "\(analysis.segments.last?.timeRange as Any)")
        let (result, _, _) = try await Harness.compress("primed.webm") {
            // A test pattern has nothing that stands out: a budget makes the reel.
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 2, analysis: analysis))
        }
        #expect(!result.analytics.keptRanges.isEmpty)
        #expect(result.analytics.keptRanges.allSatisfy { $0.end.seconds <= 3.009 }, "\(result.analytics.keptRanges)")
    }

    /// offset.mp4 starts at 10^6 s and its header counts its duration from 0 (1,000,006 s):
    /// probe, analysis and ranges all see the 6 s of media.
    @Test func aFileStartingAtAMillionSecondsLastsSixSeconds() async throws {
        let url = try Fixtures.clip("offset.mp4")
        let info = try MediaInfo.probe(url)
        #expect(abs(info.duration - 6.02) < 0.05, "\(info.duration)")
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: url))
        #expect(abs((analysis.segments.last?.timeRange.end.seconds ?? 0) - 6.02) < 0.05)
        let (result, output, _) = try await Harness.compress("offset.mp4") {
            $0.trim = .ranges([TimeRange(start: MediaTime(value: 2, timescale: 1), end: MediaTime(value: 4, timescale: 1))])
        }
        #expect(abs(output.duration - 2) < 0.05, "\(output.duration)")
        #expect(result.analytics.keptRanges.first.map { $0.start.seconds >= 1.9 && $0.end.seconds <= 4.1 } == true)
    }

    /// discontinuous.ts jumps 500 s forward halfway: read on one continuous clock, as ffmpeg
    /// does, it lasts 6 s and compresses to 6 s with all 150 frames (it gave 503 s, a 497 s hole).
    @Test func aTransportStreamWithATimestampJumpIsOneContinuousClip() async throws {
        let info = try MediaInfo.probe(try Fixtures.clip("discontinuous.ts"))
        #expect(abs(info.duration - 6.04) < 0.1, "\(info.duration)")
        let (result, output, _) = try await Harness.compress("discontinuous.ts")
        #expect(abs(output.duration - 6.04) < 0.1, "\(output.duration)")
        #expect(result.analytics.compressedFrameCount == 150)
        #expect(abs((output.primaryAudio?.duration ?? 0) - 6) < 0.15)
    }

    /// overlapping_join.mp4 is a 30 fps and a 12 fps recording joined by ffmpeg's concat
    /// demuxer: the second's first pictures are timed before the first's last ones. Compressing
    /// it failed ("writing failed: Invalid argument": the encoder was given times that went
    /// back). Those pictures are dropped, as the ffmpeg CLI drops them, and counted.
    @Test func picturesTimedBeforeThePictureBeforeThemAreDropped() async throws {
        let source = try Fixtures.clip("overlapping_join.mp4")
        let sourceTimes = try Harness.videoFrameTimes(source)
        let (result, output, _) = try await Harness.compress("overlapping_join.mp4")
        let dropped = result.analytics.mistimedFramesDropped
        #expect((1...12).contains(dropped), "\(dropped)")
        let times = try Harness.videoFrameTimes(result.url)
        #expect(Set(times).count == times.count)
        #expect(times.count == result.analytics.compressedFrameCount)
        #expect(times.count + dropped >= sourceTimes.count - 2 && times.count + dropped <= sourceTimes.count, "\(times.count) + \(dropped) of \(sourceTimes.count)")
        #expect(abs((output.primaryVideo?.duration ?? 0) - (sourceTimes.last ?? 0)) < 0.15)
        let (copy, copied, _) = try await Harness.compress("overlapping_join.mp4") { $0.streamCopy = true }
        #expect(copy.analytics.compressedFrameCount == sourceTimes.count && abs(copied.duration - output.duration) < 0.2)
    }

    /// The analysis and a chunked encode leave out the same pictures as a compression: the
    /// cut between the two recordings was refined away (the refining decode saw the second's
    /// pictures timed before the first's last ones), and the plan counted pictures no chunk
    /// encodes, so the chunks could never be assembled.
    @Test func aJoinWithPicturesTimedBackIsAnalyzedAndChunkedAsItIsCompressed() async throws {
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: try Fixtures.clip("overlapping_join.mp4")))
        let cuts = analysis.boundaries.filter { $0.kind == .cut }.map(\.time.seconds)
        #expect(cuts.count == 1 && cuts.allSatisfy { $0 > 1.9 && $0 < 2.1 }, "\(cuts)")
        let (plan, report, single) = try await ChunkPlanTests.chunkedAndSingle("overlapping_join.mp4", length: 1) { _ in }
        #expect(plan.chunks.count >= 3)
        let singleFrames = try Harness.videoFrameTimes(single).count
        #expect(plan.frameCount == singleFrames && report.frames == singleFrames, "\(plan.frameCount) \(report.frames) \(singleFrames)")
    }

    /// rate_change.ts is two MPEG-TS recordings joined byte for byte, the first's sound at
    /// 44.1 kHz, the second's at 48 kHz. Compressing or analyzing it failed ("encoding failed:
    /// Invalid argument": the sound's filter graph was made for the first rate only). Both
    /// halves' sound now reaches the output, on one clock, and the analysis.
    @Test func soundThatChangesRateMidwayIsKeptWhole() async throws {
        let (result, output, _) = try await Harness.compress("rate_change.ts")
        #expect(abs(output.duration - 4) < 0.1, "\(output.duration)")
        #expect(abs((output.primaryAudio?.duration ?? 0) - 4) < 0.1)
        let stamps = try AVIFixTests.audioPacketTimestamps(result.url)
        #expect(stamps.count > 150 && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        let sound = try SoundProbe(result.url)
        #expect(sound.rms(0.2, 1.8) > 0.02 && sound.rms(2.2, 3.8) > 0.02, "\(sound.rms(0.2, 1.8)) \(sound.rms(2.2, 3.8))")
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: try Fixtures.clip("rate_change.ts")))
        let loudness = analysis.segments.map(\.features.loudness)
        #expect(loudness.count >= 2 && loudness.allSatisfy { $0 > -40 }, "\(loudness)")
    }

    /// A copy keeps one rate in the output's track description: the 48 kHz half would play at
    /// 44.1 kHz (8% slow and low, as `ffmpeg -c copy` writes it). It is refused, saying where
    /// the rate changes, and leaves nothing.
    @Test func aCopyOfSoundThatChangesRateIsRefused() async throws {
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.streamCopy = true
        config.outputURL = directory.appendingPathComponent("copy.mp4")
        await #expect {
            _ = try await VideoCompressor().compressVideo(try Fixtures.clip("rate_change.ts"), config: config)
        } throws: { error in
            guard case ReelError.muxingFailed(_, _, let reason) = error else { return false }
            return reason.contains("changes from 44100 Hz to 48000 Hz at 2.00 s")
        }
        #expect(Fixtures.contents(of: directory).isEmpty, "\(Fixtures.contents(of: directory))")
        let header: [UInt8] = [0xFF, 0xF1, 0x4C, 0x40, 0x3D, 0x9F, 0xFC]
        #expect(header.withUnsafeBufferPointer { CopiedSoundRate.declaredRate($0) } == 48000)
        #expect([UInt8](repeating: 0, count: 7).withUnsafeBufferPointer { CopiedSoundRate.declaredRate($0) } == nil)
    }
}
