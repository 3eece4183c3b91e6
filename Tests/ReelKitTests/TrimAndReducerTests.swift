import Foundation
import Testing
@testable import ReelCompression
@testable import ReelFrameReduction
@testable import ReelMedia
@testable import ReelSupport

/// Trimming and frame reduction read back from real files.
@Suite(.timeLimit(.minutes(5))) struct TrimAndReducerTests {
    @Test func trimIsFrameAccurate() async throws {
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.trimStartTime = MediaTime(value: 1, timescale: 2)
            $0.trimEndTime = MediaTime(value: 2, timescale: 1)
        }
        let video = try #require(output.primaryVideo)
        #expect(abs((video.duration ?? 0) - 1.5) < 1e-3)
        #expect(video.frameCount == 45)
        #expect(abs((output.primaryAudio?.duration ?? 0) - 1.5) < 0.03)
        #expect(result.analytics.originalFrameCount >= 45)
        let times = try Harness.videoFrameTimes(result.url)
        #expect(times.first == 0)
        #expect(abs((times.last ?? 0) - 44.0 / 30) < 1e-3)
    }

    /// recovery_points.mp4 flags intra-refresh recovery points (every 2 s) as keyframes: a trim
    /// starting on one used to lose about 2 s of pictures (10 of 50 came out), since nothing
    /// decodes from it until the refresh completes. The transcoder now starts decoding earlier.
    @Test func trimStartingOnARecoveryPointKeepsEveryPicture() async throws {
        let (result, output, _) = try await Harness.compress("recovery_points.mp4") {
            $0.trimStartTime = MediaTime(value: 2, timescale: 1)
            $0.trimEndTime = MediaTime(value: 4, timescale: 1)
        }
        #expect(output.primaryVideo?.frameCount == 50)
        #expect(result.analytics.damagedFrames == 0)
        let times = try Harness.videoFrameTimes(result.url)
        #expect(times.count == 50)
        #expect(times.first == 0)
    }

    @Test func trimNotOnAFrameBoundaryKeepsTheFrameOnScreen() async throws {
        let (_, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.trimStartTime = MediaTime(value: 1010, timescale: 1000)
            $0.trimEndTime = MediaTime(value: 2010, timescale: 1000)
        }
        #expect(abs((output.primaryVideo?.duration ?? 0) - 1.0) < 1e-3)
    }

    @Test func evenlySpacedReductionKeepsTheWholeTimeline() async throws {
        let (result, output, _) = try await Harness.compress("fast60.mp4") { $0.fps = 30 }
        let video = try #require(output.primaryVideo)
        #expect(video.frameCount == 120)
        #expect(abs((video.duration ?? 0) - 4.0) < 1e-3)
        #expect(abs((video.video?.frameRate ?? 0) - 30) < 1e-6)
        #expect(result.analytics.originalFrameCount == 240)
        #expect(result.analytics.compressedFrameCount == 120)
        #expect(abs(result.analytics.compressedFrameRate - 30) < 1e-6)
        #expect(abs(result.analytics.originalFrameRate - 60) < 1e-6)
        let times = try Harness.videoFrameTimes(result.url)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 1e-3 })
    }

    @Test func randomReductionIsSeededAndKeepsTheTimeline() async throws {
        let first = try await Harness.compress("fast60.mp4", reducer: ReduceFrameRandomly(seed: 3)) { $0.fps = 15 }
        let second = try await Harness.compress("fast60.mp4", reducer: ReduceFrameRandomly(seed: 3)) { $0.fps = 15 }
        #expect(first.output.primaryVideo?.frameCount == 60)
        #expect(abs((first.output.primaryVideo?.duration ?? 0) - 4.0) < 1e-3)
        let firstBlocks = try FrameProbe.firstFrame(of: first.result.url).blocks
        let secondBlocks = try FrameProbe.firstFrame(of: second.result.url).blocks
        #expect(firstBlocks == secondBlocks)
    }

    @Test func sceneAwareReductionStartsEachShotOnItsFirstFrame() async throws {
        // Cuts at exactly 1.0 s and 2.0 s; at 6.5 fps the even grid lands on 0.923 and 1.077 s.
        let scene = try await Harness.compress("scenes.mp4", reducer: SceneAwareReducer()) { $0.fps = 6.5 }
        let times = try Harness.videoFrameTimes(scene.result.url)
        #expect(times.contains { abs($0 - 1.0) < 1e-3 })
        #expect(times.contains { abs($0 - 2.0) < 1e-3 })
        let even = try await Harness.compress("scenes.mp4") { $0.fps = 6.5 }
        let evenTimes = try Harness.videoFrameTimes(even.result.url)
        #expect(!evenTimes.contains { abs($0 - 1.0) < 1e-3 })
        #expect(abs((scene.output.primaryVideo?.duration ?? 0) - 3.0) < 1e-3)
    }

    @Test func variableFrameRateSourceLastsAsLongAsTheSource() async throws {
        let source = try MediaInfo.probe(try Fixtures.clip("vfr_audio.mp4"))
        #expect(source.primaryVideo?.video?.isVariableFrameRate == true)
        let sourceDuration = try #require(source.primaryVideo?.duration)
        let (result, output, _) = try await Harness.compress("vfr_audio.mp4") { $0.fps = 20 }
        let duration = try #require(output.primaryVideo?.duration)
        #expect(abs(duration - sourceDuration) <= 1.0 / 20)
        let times = try Harness.videoFrameTimes(result.url)
        // No frozen tail: frames keep coming until the last interval.
        #expect((times.last ?? 0) >= sourceDuration - 2.0 / 20)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 1.0 / 20 - 1e-3 })
    }

    @Test func encoderChoosesItsOwnKeyframesNotTheSources() async throws {
        // The source has keyframes at 0, 1 and 2 s; with a 90-frame interval the encoder needs
        // only the first one. Copying the decoder's picture types would force all three.
        let (result, _, _) = try await Harness.compress("cfr_audio.mp4") { $0.maxKeyFrameInterval = 90 }
        #expect(try Harness.keyframeCount(result.url) == 1)
        let (short, _, _) = try await Harness.compress("cfr_audio.mp4") { $0.maxKeyFrameInterval = 15 }
        #expect(try Harness.keyframeCount(short.url) >= 6)
    }

    /// originalFrameCount counts the source's frames inside the trim, not the frames decoded
    /// from the keyframe before it (cfr_audio.mp4 has keyframes at 0, 1 and 2 s).
    @Test func originalFrameCountCountsOnlyTheTrimmedFrames() async throws {
        let (result, _, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.trimStartTime = MediaTime(value: 3, timescale: 2)
            $0.trimEndTime = MediaTime(value: 5, timescale: 2)
        }
        #expect(result.analytics.originalFrameCount == 30, "\(result.analytics.originalFrameCount)")
        #expect(result.analytics.compressedFrameCount == 30)
    }
}
