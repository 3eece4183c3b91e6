import Testing
@testable import ReelSupport

@Suite(.timeLimit(.minutes(5))) struct MediaTimeTests {
    @Test func comparesAcrossTimescales() {
        #expect(MediaTime(value: 1, timescale: 3) == MediaTime(value: 10, timescale: 30))
        #expect(MediaTime(value: 1001, timescale: 30000) < MediaTime(value: 1, timescale: 29))
        #expect(MediaTime(value: 3, timescale: 2) > MediaTime(value: 1, timescale: 1))
        #expect(Set([MediaTime(value: 1, timescale: 2), MediaTime(value: 5, timescale: 10)]).count == 1)
    }

    @Test func addsAndSubtractsExactly() {
        let sum = MediaTime(value: 1, timescale: 30) + MediaTime(value: 1, timescale: 30)
        #expect(sum == MediaTime(value: 2, timescale: 30))
        let difference = MediaTime(value: 3, timescale: 1) - MediaTime(value: 500, timescale: 1000)
        #expect(difference == MediaTime(value: 5, timescale: 2))
        #expect(difference.seconds == 2.5)
    }

    @Test func convertsWithRounding() {
        #expect(MediaTime(value: 1, timescale: 3).converted(to: 1000).value == 333)
        #expect(MediaTime(value: 2, timescale: 3).converted(to: 1000).value == 667)
        #expect(MediaTime(value: -2, timescale: 3).converted(to: 1000).value == -667)
        #expect(MediaTime(seconds: 12.25, timescale: 1000).value == 12250)
    }

    @Test func rangesAreHalfOpen() {
        let range = TimeRange(start: MediaTime(value: 1, timescale: 1), end: MediaTime(value: 2, timescale: 1))
        #expect(range.contains(MediaTime(value: 1, timescale: 1)))
        #expect(!range.contains(MediaTime(value: 2, timescale: 1)))
        #expect(range.duration == MediaTime(value: 1, timescale: 1))
        #expect(!range.isEmpty)
    }
}

extension MediaTimeTests {
    @Test func sumsOfDifferentTimescalesStayExact() {
        let frame = MediaTime(value: 234_496, timescale: 15_360)
        let sum = frame + MediaTime(value: 0, timescale: 1_000_000)
        #expect(sum == frame)
        #expect(sum.timescale == 48_000_000)
        #expect(MediaTime(value: 1, timescale: 3) + MediaTime(value: 1, timescale: 7) == MediaTime(value: 10, timescale: 21))
    }
}
