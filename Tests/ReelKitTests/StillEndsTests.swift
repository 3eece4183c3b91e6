import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelSupport

/// A highlight piece's still, silent ends are trimmed (the empty room after someone walked out
/// of a fixed camera's view); sound or movement keeps them. On made-up samples: the real-footage
/// figures are in the session notes (Benchmarks/framing/README.md names the clips).
@Suite struct StillEndsTests {
    /// Six samples a second for 8 s: the picture changes (someone walks through) from 2 to 4 s
    /// and holds still otherwise.
    private let samples: [SampleSignature] = (0..<48).map { index in
        let time = Double(index) / 6
        let walking = time >= 2 && time < 4
        let signature = (0..<224).map { block in UInt8(walking ? (block * 7 + index * 40) % 256 : 100 + (index + block) % 3) }
        return SampleSignature(time: MediaTime(seconds: time, timescale: 600), signature: signature)
    }

    private func range(_ start: Double, _ end: Double) -> TimeRange {
        TimeRange(start: MediaTime(seconds: start, timescale: 600), end: MediaTime(seconds: end, timescale: 600))
    }

    @Test func stillSilentEndsAreTrimmedToHalfASecondAroundTheAction() {
        let trimmed = StillEnds(samples: samples, sound: nil).trimmed(range(0, 8), minimumPiece: 1)
        // The first change shows at 2 s (the sample before it is at 1.83 s), the last at 4 s
        // (the picture is back to still there).
        #expect(abs(trimmed.start.seconds - (11.0 / 6 - 0.5)) < 0.01, "\(trimmed)")
        #expect(abs(trimmed.end.seconds - 4.5) < 0.01, "\(trimmed)")
    }

    @Test func soundOrTheShortestPieceKeepsTheEnds() {
        // Speech over the still end (-20 dB against a -20 dB baseline) keeps it.
        let speech = SoundEnvelope(start: 0, step: 0.02, levels: [Int8](repeating: -20, count: 400), typical: -20)
        #expect(StillEnds(samples: samples, sound: speech).trimmed(range(0, 8), minimumPiece: 1) == range(0, 8))
        // Digital silence is nothing heard, whatever the baseline.
        let silence = SoundEnvelope(start: 0, step: 0.02, levels: [Int8](repeating: -120, count: 400), typical: -120)
        #expect(StillEnds(samples: samples, sound: silence).trimmed(range(0, 8), minimumPiece: 1) != range(0, 8))
        // A piece may not get shorter than the shortest piece: the end gives back what is missing.
        let long = StillEnds(samples: samples, sound: nil).trimmed(range(0, 8), minimumPiece: 4)
        #expect(abs(long.duration.seconds - 4) < 0.01 && abs(long.start.seconds - (11.0 / 6 - 0.5)) < 0.01, "\(long)")
        // A piece that is all still is kept as chosen.
        #expect(StillEnds(samples: samples, sound: nil).trimmed(range(5, 8), minimumPiece: 1) == range(5, 8))
        // So is a still shot whose only change is the cut into it (at 4 s here); without the cut
        // the same change is action, and the still end after it goes.
        #expect(StillEnds(samples: samples, sound: nil, boundaries: [4]).trimmed(range(3.8, 8), minimumPiece: 1) == range(3.8, 8))
        #expect(StillEnds(samples: samples, sound: nil).trimmed(range(3.8, 8), minimumPiece: 1) != range(3.8, 8))
    }

    @Test func theStillStretchesAreTheSilentVideosPauses() {
        let spans = StillEnds(samples: samples, sound: nil).stillSpans()
        #expect(spans.count == 2 && abs(spans[0].upperBound - 11.0 / 6) < 1e-6 && spans[1] == 4...(47.0 / 6), "\(spans)")
        // A cut is not stillness across it: the stretch splits there.
        let cut = StillEnds(samples: samples, sound: nil, boundaries: [1]).stillSpans()
        #expect(cut.count == 3 && abs(cut[0].upperBound - 5.0 / 6) < 1e-6 && cut[1].lowerBound == 1, "\(cut)")
    }
    /// car-detection's reel ran on through 5 s of empty car park between two cars: a still,
    /// silent stretch of 2 s or more inside a piece is cut out but for half a second either
    /// side; not when it is heard, shorter, or would leave a part under the shortest piece.
    @Test func aStillSilentStretchInsideAPieceIsCutOut() {
        // Walking from 2 to 4 s and from 8 to 10 s, still otherwise (12 s, six samples a second).
        let twice: [SampleSignature] = (0..<72).map { index in
            let time = Double(index) / 6
            let walking = (time >= 2 && time < 4) || (time >= 8 && time < 10)
            let signature = (0..<224).map { block in UInt8(walking ? (block * 7 + index * 40) % 256 : 100 + (index + block) % 3) }
            return SampleSignature(time: MediaTime(seconds: time, timescale: 600), signature: signature)
        }
        let still = StillEnds(samples: twice, sound: nil)
        let spans = still.stillSpans()
        let parts = still.withoutInnerStills(range(1.5, 10.5), spans: spans, minimumPiece: 2)
        #expect(parts.count == 2, "\(parts)")
        #expect(abs(parts[0].start.seconds - 1.5) < 0.01 && abs(parts[0].end.seconds - 4.5) < 0.01, "\(parts)")
        #expect(abs(parts[1].start.seconds - (47.0 / 6 - 0.5)) < 0.01 && abs(parts[1].end.seconds - 10.5) < 0.01, "\(parts)")
        #expect(still.withoutInnerStills(range(1.5, 10.5), spans: spans, minimumPiece: 3.5) == [range(1.5, 10.5)],
                "a part would be under the shortest piece")
        let speech = SoundEnvelope(start: 0, step: 0.02, levels: [Int8](repeating: -20, count: 600), typical: -20)
        let heard = StillEnds(samples: twice, sound: speech)
        #expect(heard.withoutInnerStills(range(1.5, 10.5), spans: heard.stillSpans(), minimumPiece: 2) == [range(1.5, 10.5)])
        #expect(still.withoutInnerStills(range(1.5, 10.5), spans: [4...5.8], minimumPiece: 2) == [range(1.5, 10.5)], "1.8 s is kept")
    }
}
