import Testing
import ReelKit

/// Core Media's names over `MediaTime` and `TimeRange`, as ported code uses them.
@Suite(.timeLimit(.minutes(5))) struct CoreMediaCompatibilityTests {
    @Test func cmTimeIsAMediaTimeRoundedToItsPreferredTimescale() {
        let time = CMTime(seconds: 5.0004, preferredTimescale: 600)
        #expect(time == MediaTime(value: 3000, timescale: 600) && time.timescale == 600)
        #expect(CMTimeGetSeconds(CMTimeMake(value: 1001, timescale: 30000)) == 1001.0 / 30000)
        #expect(CMTimeMakeWithSeconds(1.5, preferredTimescale: 2) == CMTime(value: 3, timescale: 2))
        #expect(CMTimeAdd(CMTimeMake(value: 1, timescale: 3), CMTimeMake(value: 1, timescale: 7)) == CMTimeMake(value: 10, timescale: 21))
        #expect(CMTimeSubtract(.zero, CMTimeMake(value: 1, timescale: 2)).seconds == -0.5)
        #expect([CMTimeCompare(.zero, time), CMTimeCompare(time, time), CMTimeCompare(time, .zero)] == [-1, 0, 1])
    }

    @Test func cmTimeRangeIsATimeRangeByStartAndDuration() {
        let range = CMTimeRange(start: CMTime(seconds: 2, preferredTimescale: 600), duration: CMTime(value: 3, timescale: 2))
        #expect(range == TimeRange(start: MediaTime(value: 2, timescale: 1), end: MediaTime(value: 7, timescale: 2)))
        #expect(range.duration == CMTime(value: 3, timescale: 2) && CMTimeRangeGetEnd(range) == range.end)
        #expect(CMTimeRangeMake(start: range.start, duration: range.duration) == range)
        #expect(range.containsTime(range.start) && !range.containsTime(range.end))
        #expect(CMTimeRange.zero.isEmpty)
    }
}
