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
}
