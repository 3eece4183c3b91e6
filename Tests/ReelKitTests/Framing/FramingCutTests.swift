import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia
@testable import ReelSupport

/// The framing pass starts a fresh camera path at every cut, including cuts inside fast
/// handheld motion that change the picture less than three times the frames before them.
@Suite struct FramingCutTests {
    private func verdicts(_ changes: [Double]) -> [CutTracker.Verdict] {
        var tracker = CutTracker()
        return changes.map { tracker.verdict(change: $0) }
    }

    @Test func aCutInFastMotionIsFoundOnePictureLate() {
        // bikes.mp4 around 3.04 s: shaking street, the cut, then the new shot's calmer motion.
        #expect(verdicts([0.025, 0.025, 0.0713, 0.012, 0.0125]) == [.none, .none, .none, .previousWasCut, .none])
        // A clear cut is found on its own picture and not again one picture later.
        #expect(verdicts([0.005, 0.005, 0.10, 0.009, 0.009]) == [.none, .none, .cut, .none, .none])
    }

    @Test func motionThatStaysFastOrAFlashIsNoLateCut() {
        // A whip pan: the change jumps and stays high.
        #expect(!verdicts([0.025, 0.025, 0.07, 0.06, 0.065]).contains(.previousWasCut))
        // Under the smallest change a cut makes, whatever follows.
        #expect(verdicts([0.01, 0.01, 0.05, 0.002, 0.002]) == [.none, .none, .none, .none, .none])
        // A flash: on and off again are both large changes.
        #expect(!verdicts([0.02, 0.02, 0.09, 0.09, 0.02]).contains(.previousWasCut))
    }

    /// The street montage's five cuts, PySceneDetect's detect-content's and the analyzer's
    /// (1.2, 3.04, 5.48, 7.48, 9.68 s); the one at 3.04 s comes out of a shaking shot.
    @Test func everyCutOfAHandheldMontageStartsAShot() throws {
        let source = try MediaInfo.probe(try FaceFixtures.footage("bikes.mp4"))
        let whole = ClosedSourceRange(start: .zero, end: MediaTime(seconds: source.duration, timescale: 1000), needsSeek: false, endsEarly: false)
        let path = try #require(try FramingPass.plannedPath(of: source, ranges: [whole], reframing: Reframing(aspect: .vertical),
                                                            frameRate: 25, shouldCancel: { false }).path)
        let starts = path.shots.map(\.start).dropFirst()
        #expect(starts.count == 5, "\(starts)")
        for cut in [1.2, 3.04, 5.48, 7.48, 9.68] {
            #expect(starts.contains { abs($0 - cut) < 0.05 }, "no shot starts at \(cut): \(starts)")
        }
    }
}
