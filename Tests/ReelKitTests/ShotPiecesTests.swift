import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelKit

/// `reel split --shots` writes shots worth a file: the fragments of a transition (the black
/// between a fade out and a fade in, the start of a fade from black, a black first frame) join
/// a neighbour; short shots between cuts stay their own.
@Suite struct ShotPiecesTests {
    static func analysis(_ edges: [(Double, ShotBoundary.Kind)], end: Double) -> VideoAnalysis {
        let time = { (seconds: Double) in MediaTime(seconds: seconds, timescale: 1000) }
        let starts = [0.0] + edges.map(\.0), ends = edges.map(\.0) + [end]
        return VideoAnalysis(
            duration: end, boundaries: edges.map { ShotBoundary(time: time($0.0), kind: $0.1, transition: nil) },
            shots: zip(starts, ends).map { TimeRange(start: time($0), end: time($1)) }, segments: [], keyFrame: nil)
    }

    static func pairs(_ ranges: [TimeRange]) -> [[Double]] {
        ranges.map { [($0.start.seconds * 1000).rounded() / 1000, ($0.end.seconds * 1000).rounded() / 1000] }
    }

    /// The trailer's first 25 s as the analyzer sees them: a 0.33 s fade from black, and a title
    /// that fades out (0.46 s) to 0.21 s of black before the next scene fades in. Without the
    /// samples' brightness, fragments under half a second join the shot before.
    @Test func fragmentsOfFadesJoinTheirNeighbours() {
        let trailer = Self.analysis([(0.333, .gradual), (10.0, .gradual), (10.542, .gradual), (13.542, .gradual),
                                     (14.0, .gradual), (14.208, .gradual)], end: 24.708)
        #expect(Self.pairs(trailer.shotPieces()) == [[0, 10], [10, 10.542], [10.542, 14.208], [14.208, 24.708]])
    }

    /// With the samples' mean brightness (as the analyzer measured the trailer at 9.5-14.4 s and
    /// 48-53 s), a fade's fragments are cut where they are darkest: the darkening part joins
    /// the shot before, the brightening part the shot after.
    @Test func aFadeOutJoinsTheShotBeforeAndAFadeInTheShotAfter() {
        var trailer = Self.analysis([(10.0, .gradual), (10.542, .gradual), (13.542, .gradual), (14.0, .gradual),
                                     (14.208, .gradual), (20.0, .cut), (48.333, .gradual), (50.5, .gradual),
                                     (51.667, .gradual), (52.167, .gradual)], end: 55.125)
        let lumas: [(Double, UInt8)] = [
            (9.5, 95), (9.67, 72), (9.83, 50), (10.0, 27), (10.17, 49), (10.38, 76), (10.54, 98), (10.71, 120),
            (13.33, 116), (13.54, 88), (13.71, 66), (13.88, 43), (14.0, 27), (14.21, 40), (14.38, 51),
            (50.33, 119), (50.5, 99), (50.67, 83), (50.83, 69), (51.0, 56), (51.21, 43), (51.33, 35), (51.5, 28),
            (51.67, 23), (51.83, 19), (52.0, 16), (52.17, 18), (52.33, 18)]
        trailer.samples = lumas.map { time, luma in
            SampleSignature(time: MediaTime(seconds: time, timescale: 1000), signature: [UInt8](repeating: luma, count: 144)
                + [UInt8](repeating: 128, count: 80))
        }
        #expect(Self.pairs(trailer.shotPieces()) == [[0, 10], [10, 14], [14, 20], [20, 48.333],
                                                     [48.333, 52.085], [52.085, 55.125]])
    }

    /// Megamind.avi opens on one black frame before its first cut.
    @Test func aBlackFirstFrameJoinsTheFirstShot() {
        let film = Self.analysis([(0.042, .cut), (4.087, .cut), (6.423, .cut)], end: 11.26)
        #expect(Self.pairs(film.shotPieces()) == [[0, 4.087], [4.087, 6.423], [6.423, 11.26]])
    }

    @Test func aQuickMontageKeepsEveryShot() {
        let montage = Self.analysis([(1.0, .cut), (1.3, .cut), (1.6, .cut), (1.9, .cut)], end: 4)
        #expect(Self.pairs(montage.shotPieces()) == [[0, 1], [1, 1.3], [1.3, 1.6], [1.6, 1.9], [1.9, 4]])
        let blink = Self.analysis([(0.2, .cut)], end: 0.4)
        #expect(Self.pairs(blink.shotPieces()) == [[0, 0.4]])
    }
}
