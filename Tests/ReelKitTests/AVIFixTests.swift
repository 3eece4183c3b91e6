import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// AVI sources: cuts of AVI files whose AC-3 chunks do not start on frame boundaries.
@Suite(.timeLimit(.minutes(5))) struct AVIFixTests {
    /// Presentation timestamps (in the stream's time base) of the audio packets, in file order.
    static func audioPacketTimestamps(_ url: URL) throws -> [Int] {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "a:0", "-show_entries", "packet=pts"])
        return (json["packets"] as? [[String: Any]] ?? []).compactMap { $0["pts"] as? Int }
    }

    /// A range starting on or just after the keyframe at 3 s: the seek lands on an AC-3 chunk
    /// that begins inside a frame, and the first whole frames come out 24 ms late (the muxer
    /// used to refuse the audio that then went back in time).
    @Test(arguments: [3000, 3010, 3020, 3040])
    func transcodesAVIRangesStartingJustAfterAKeyframe(startMilliseconds: Int) async throws {
        let start = MediaTime(value: Int64(startMilliseconds), timescale: 1000)
        let end = MediaTime(value: Int64(startMilliseconds + 1200), timescale: 1000)
        let (result, output, _) = try await Harness.compress("ac3_chunks.avi") {
            $0.trim = .ranges([TimeRange(start: MediaTime(value: 1, timescale: 2), end: MediaTime(value: 3, timescale: 2)),
                               TimeRange(start: start, end: end)])
        }
        // The sound never goes back in time, and lasts as long as the ranges.
        let stamps = try Self.audioPacketTimestamps(result.url)
        #expect(stamps.count > 90)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        let audio = try #require(output.primaryAudio?.duration)
        #expect(abs(audio - 2.2) < 0.06)
    }

    @Test func continuityTrimsOverlapsAndKeepsGaps() {
        var clock = AudioContinuity()
        #expect(clock.place(stamp: 1000, count: 1536, rate: 48000) == .keep(start: 1000, droppingLeading: 0))
        // Late first frames, then the container's right time: the overlap is cut off.
        #expect(clock.place(stamp: 2536 - 1180, count: 1536, rate: 48000) == .keep(start: 2536, droppingLeading: 1180))
        // Rounding (under 2 ms) is closed up; a frame without a time continues the clock.
        #expect(clock.place(stamp: 2892 + 40, count: 1536, rate: 48000) == .keep(start: 2892, droppingLeading: 0))
        #expect(clock.place(stamp: nil, count: 1536, rate: 48000) == .keep(start: 4428, droppingLeading: 0))
        // A frame entirely behind the clock is dropped; a gap is kept.
        #expect(clock.place(stamp: 4000, count: 1024, rate: 48000) == .drop)
        #expect(clock.place(stamp: 9000, count: 1536, rate: 48000) == .keep(start: 9000, droppingLeading: 0))
        clock.reset()
        #expect(clock.place(stamp: 100, count: 1536, rate: 48000) == .keep(start: 100, droppingLeading: 0))
    }
}
