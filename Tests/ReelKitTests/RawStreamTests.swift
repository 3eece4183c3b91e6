import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia

/// Raw elementary streams (story.h264: 24 s at 30 fps, no container, no timestamps) are read
/// as ffmpeg reads them: frames counted and timed at the frame rate.
@Suite(.timeLimit(.minutes(5))) struct RawStreamTests {
    @Test func aRawH264StreamIsProbedWithItsLength() throws {
        let info = try MediaInfo.probe(try Fixtures.clip("story.h264"))
        #expect(abs(info.duration - 24) < 0.05, "\(info.duration)")
        #expect(info.primaryVideo?.frameCount == 720)
        let quick = try MediaInfo.probe(try Fixtures.clip("story.h264"), measuringBitRates: false)
        #expect(abs(quick.duration - 24) < 0.05)
    }

    @Test func aRawH264StreamCompressesWithEveryFrameOnItsTime() async throws {
        let (result, output, _) = try await Harness.compress("story.h264")
        #expect(abs(output.duration - 24) < 0.1, "\(output.duration)")
        #expect(result.analytics.compressedFrameCount == 720)
        let frames = try Fixtures.run("/usr/bin/ffprobe", [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
            "-of", "csv=p=0", result.url.path,
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(frames == "720")
    }

    @Test func aRawH264StreamGivesTheFrameOnScreen() async throws {
        let directory = try Fixtures.scratchDirectory()
        let result = try await Thumbnailer(analyzer: VideoAnalyzer()).thumbnail(
            of: try Fixtures.clip("story.h264"), at: MediaTime(value: 10, timescale: 1), to: directory.appendingPathComponent("at10.jpg"))
        let shown = try #require(result.times.first).seconds
        #expect(shown <= 10 && shown > 10 - 0.04, "the frame on screen at 10 s starts at \(shown)")
    }

    /// Every path that seeks reads a raw stream forward from its start instead (it failed with
    /// "its format does not allow reading it this way"): content-aware tuning's samples, the
    /// analysis and reel of `highlights`, target quality's samples; H.264 and HEVC.
    @Test(arguments: ["story.h264", "story.hevc"])
    func aRawStreamGoesThroughEveryPathThatSeeks(clip: String) async throws {
        let (tuned, output, _) = try await Harness.compress(clip) { $0.contentAwareOptimization = true }
        #expect(abs(output.duration - 24) < 0.1 && tuned.analytics.compressedFrameCount == 720, "\(output.duration) s")
        let (reel, reelOutput, _) = try await Harness.compress(clip) { config in
            config.trim = .highlights(HighlightReelOptions(maximumDuration: 8))
        }
        let kept = reel.analytics.keptRanges.map(\.duration.seconds).reduce(0, +)
        #expect(kept > 2 && kept <= 8.05, "\(reel.analytics.keptRanges)")
        #expect(abs(reelOutput.duration - kept) < 0.6, "\(reelOutput.duration) s for \(kept) s kept")
        let (measured, _, _) = try await Harness.compress(clip) { config in
            config.targetQuality = TargetQuality(.ssim, 0.95)
        }
        #expect(measured.analytics.compressedFrameCount == 720)
    }

    /// A raw stream has no timestamps to copy: `--copy` is refused with the reason, up front,
    /// and nothing is written.
    @Test func aRawStreamIsNotCopied() async throws {
        let error = await Harness.reelError { _ = try await Harness.compress("story.h264") { $0.streamCopy = true } }
        guard case .streamCopyFailed(_, let reason) = error else {
            Issue.record("expected streamCopyFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("raw h264 stream has no timestamps"), "\(reason)")
    }
}
