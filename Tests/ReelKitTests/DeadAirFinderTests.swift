import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelMedia
@testable import ReelSupport

/// `DeadAirFinder` on measured peaks laid out by hand: where sound is, and what is kept of it.
@Suite struct DeadAirFinderTests {
    /// Peaks of 20 ms windows over `length` seconds: `level` inside `loud`, 0.001 elsewhere.
    static func peaks(_ loud: [(Double, Double)], length: Double, level: Float = 0.5) -> SoundPeaks {
        let count = Int((length / 0.02).rounded())
        return SoundPeaks(start: 0, window: 0.02, peaks: (0..<count).map { index in
            let time = Double(index) * 0.02 + 0.01
            return loud.contains { time >= $0.0 && time < $0.1 } ? level : 0.001
        })
    }

    static func pairs(_ ranges: [TimeRange]) -> [[Double]] {
        ranges.map { [($0.start.seconds * 1000).rounded() / 1000, ($0.end.seconds * 1000).rounded() / 1000] }
    }

    @Test func shortDipsJoinTheSoundAndClicksAreNotSound() {
        let finder = DeadAirFinder(options: DeadAirOptions())
        // A word, a 0.1 s dip, its final consonant; a 40 ms click on its own later.
        let sound = Self.peaks([(1.0, 1.5), (1.6, 1.7), (3.0, 3.04)], length: 5)
        let spans = finder.soundSpans(sound, amplitude: 0.02).map { [$0.start, $0.end].map { ($0 * 1000).rounded() / 1000 } }
        #expect(spans == [[1.0, 1.7]])
        let report = finder.report(sound: sound, picture: nil, duration: 5)
        #expect(Self.pairs(report.kept) == [[0.8, 1.9]])
        #expect(Self.pairs(report.cuts) == [[0, 0.8], [1.9, 5]])
    }

    @Test func gapsShorterThanTheShortestPauseStay() {
        var options = DeadAirOptions()
        options.marginBefore = 0.1
        options.marginAfter = 0.3
        // After the margins: [0.9, 2.3] and [2.7, 3.8] are 0.4 s apart (kept), [5.0, 6.3] 1.2 s later (cut);
        // the start's 0.9 s goes, the end's 0.2 s stays.
        let sound = Self.peaks([(1.0, 2.0), (2.8, 3.5), (5.1, 6.0)], length: 6.5)
        let report = DeadAirFinder(options: options).report(sound: sound, picture: nil, duration: 6.5)
        #expect(Self.pairs(report.kept) == [[0.9, 3.8], [5.0, 6.5]])
        #expect(Self.pairs(report.cuts) == [[0, 0.9], [3.8, 5.0]])
        options.minimumPause = 1.5
        let longer = DeadAirFinder(options: options).report(sound: sound, picture: nil, duration: 6.5)
        #expect(Self.pairs(longer.kept) == [[0, 6.5]])
    }

    @Test func aLevelInDecibelsIsAFixedPeak() {
        // Peaks of 0.05 (-26 dBFS) are the loudest: 4% of the peak counts them, -20 dB does not.
        let sound = Self.peaks([(1.0, 2.0)], length: 4, level: 0.05)
        var options = DeadAirOptions()
        options.silenceLevel = .decibels(-30)
        #expect(Self.pairs(DeadAirFinder(options: options).report(sound: sound, picture: nil, duration: 4).kept) == [[0.8, 2.2]])
        options.silenceLevel = .decibels(-20)
        let none = DeadAirFinder(options: options).report(sound: sound, picture: nil, duration: 4)
        #expect(none.kept.isEmpty && Self.pairs(none.cuts) == [[0, 4]])
        #expect(abs((none.silenceLevelDecibels ?? 0) + 20) < 1e-4)
        // Digital silence has no loudest peak to take a share of: nothing is sound.
        let silent = SoundPeaks(start: 0, window: 0.02, peaks: [Float](repeating: 0, count: 100))
        #expect(DeadAirFinder(options: DeadAirOptions()).report(sound: silent, picture: nil, duration: 2).kept.isEmpty)
    }

    @Test func aMovingPictureIsActivityOnlyWhenAStillOneIsAskedFor() {
        let sound = Self.peaks([(1.0, 2.0), (6.0, 7.0)], length: 8)
        // The picture moves between 3 s and 4 s and nowhere else.
        let times = stride(from: 0.0, to: 8, by: 0.1).map { $0 }
        let picture = PictureChanges(times: times, changes: times.map { $0 > 3.05 && $0 < 4.05 ? 0.3 : 0 })
        let silence = DeadAirFinder(options: DeadAirOptions()).report(sound: sound, picture: picture, duration: 8)
        #expect(Self.pairs(silence.kept) == [[0.8, 2.2], [5.8, 7.2]])
        var options = DeadAirOptions()
        options.requiresStillPicture = true
        let still = DeadAirFinder(options: options).report(sound: sound, picture: picture, duration: 8)
        #expect(Self.pairs(still.kept) == [[0.8, 2.2], [2.8, 4.2], [5.8, 7.2]])
    }

    @Test func optionsThatMakeNoSenseAreRefused() {
        var options = DeadAirOptions()
        options.silenceLevel = .shareOfPeak(1.5)
        #expect(throws: ReelError.self) { try options.validate() }
        options = DeadAirOptions()
        options.silenceLevel = .decibels(3)
        #expect(throws: ReelError.self) { try options.validate() }
        options = DeadAirOptions()
        options.marginBefore = -0.1
        #expect(throws: ReelError.self) { try options.validate() }
        options = DeadAirOptions()
        options.minimumPause = 0
        #expect(throws: ReelError.self) { try options.validate() }
        #expect(throws: Never.self) { try DeadAirOptions().validate() }
    }
}
