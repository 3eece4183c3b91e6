import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia
@testable import ReelSupport

/// Joined ranges and reels keep the output's frame grid: a constant rate, every frame lasting
/// one frame, no holes at the joins (ranges starting or ending between two frames used to give
/// a short first frame and an 8-33 ms hole at each join, and a 60/1 r_frame_rate).
@Suite(.timeLimit(.minutes(5))) struct FrameGridTests {
    static func presentationTimes(_ url: URL) throws -> [Double] {
        try Fixtures.run("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", url.path,
        ]).split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
    }

    @Test func rangesBetweenFramesJoinOnTheFrameGrid() async throws {
        func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, timescale: 1000) }
        let (result, output, _) = try await Harness.compress("story.mp4") {
            $0.trim = .ranges([
                TimeRange(start: time(1.01), end: time(3.5)), TimeRange(start: time(7.02), end: time(9.3)),
                TimeRange(start: time(15), end: time(17)),
            ])
        }
        let times = try Self.presentationTimes(result.url)
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(times.first == 0)
        #expect(steps.allSatisfy { abs($0 - 1.0 / 30) < 0.001 }, "irregular steps: \(steps.filter { abs($0 - 1.0 / 30) >= 0.001 })")
        // 1.0-3.5, 7.033-9.3 and 15-17 s: 75 + 68 + 60 frames.
        #expect(times.count == 203)
        #expect(abs((output.primaryVideo?.video?.frameRate ?? 0) - 30) < 0.01)
        let audio = try #require(output.primaryAudio?.duration)
        #expect(abs(audio - 203.0 / 30) < 0.03, "audio \(audio) s")
    }
}
