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
}

