import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelSupport

/// Level calibration and the editor-like choice of highlights, on synthetic analyses.
@Suite(.timeLimit(.minutes(5))) struct HighlightEditorTests {
    static func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value, timescale: 1000) }

    /// An analysis of consecutive segments (start, end, level, look); each look is the value of
    /// every byte of its samples' signatures, sampled every `sampleEvery` seconds.
    static func analysis(_ parts: [(Double, Double, Float, UInt8)], cuts: [Double] = [], sampleEvery: Double = 0.25) -> VideoAnalysis {
        var samples: [SampleSignature] = []
        let segments = parts.map { part in
            var time = part.0
            while time < part.1 - 1e-9 {
                // A little variation per sample so only the same look matches across pieces.
                let wobble = UInt8(Int(time * 4) % 2)
                var signature = [UInt8](repeating: part.3 &+ wobble, count: 224)
                // One block changes from sample to sample: something moves in the picture (the
                // still, silent ends of a piece would be trimmed, see StillEndsTests).
                signature[223] = UInt8(truncatingIfNeeded: Int(time * 4) * 37)
                samples.append(SampleSignature(time: seconds(time), signature: signature))
                time += sampleEvery
            }
            var segment = EngagementSegment(timeRange: TimeRange(start: seconds(part.0), end: seconds(part.1)), level: part.2,
                                            features: EngagementScoringTests.features())
            segment.signature = [UInt8](repeating: part.3, count: 224)
            return segment
        }
        let shots = segments.map(\.timeRange)
        return VideoAnalysis(
            duration: parts.last?.1 ?? 0, boundaries: cuts.map { ShotBoundary(time: seconds($0), kind: .cut, transition: nil) },
            shots: shots, segments: segments, keyFrame: nil, decodePasses: 1, refinedCuts: 0, sampledFrames: samples.count,
            samples: samples)
    }

    static func pairs(_ ranges: [TimeRange]) -> [[Double]] {
        ranges.map { [($0.start.seconds * 100).rounded() / 100, ($0.end.seconds * 100).rounded() / 100] }
    }

    @Test func levelsFollowTheVideosOwnSpread() {
        let calibration = LevelCalibration()
        let raw = [0.30, 0.31, 0.32, 0.45, 0.50, 0.33, 0.30]
        let levels = calibration.levels(raw, durations: raw.map { _ in 1 })
        #expect(levels.max() == 9)
        #expect(levels.min() == 0)
        #expect(levels[4] > levels[3] && levels[3] > levels[2])
        // The same ranking on a quieter video gives the same levels.
        let quieter = calibration.levels(raw.map { $0 - 0.2 }, durations: raw.map { _ in 1 })
        #expect(zip(quieter, levels).allSatisfy { abs($0 - $1) < 0.02 })
    }

    @Test func anUneventfulVideoKeepsLowAbsoluteLevels() {
        let raw = (0..<40).map { 0.5 + 0.004 * Double($0 % 3) }
        let levels = LevelCalibration().levels(raw, durations: raw.map { _ in 2 })
        #expect(levels.allSatisfy { $0 < Double(HighlightEditing.defaultLevel) })
        #expect(HighlightSelector.highlights(Self.analysis(levels.indices.map {
            (Double($0) * 2, Double($0) * 2 + 2, Float(levels[$0]), 100)
        }), minimumLevel: nil).isEmpty)
    }

    @Test func smoothingLiftsALullInsideAPassageAndLowersAnIsolatedSpike() {
        let seconds = Self.seconds
        // 2 s segments over 60 s: a passage at 20-32 s with a lull at 26-28, and a lone spike at 44-46.
        let ranges = (0..<30).map { TimeRange(start: seconds(Double($0) * 2), end: seconds(Double($0) * 2 + 2)) }
        let raw = (0..<30).map { index -> Double in
            switch index {
            case 10...12, 14...15: return 0.8
            case 13: return 0.35
            case 22: return 0.8
            default: return 0.3
            }
        }
        let smooth = LevelCalibration().smoothed(raw, ranges: ranges)
        #expect(smooth[13] > 0.55, "the lull rises towards its passage: \(smooth[13])")
        #expect(smooth[22] < 0.6, "the lone spike sinks: \(smooth[22])")
        #expect(smooth[12] > smooth[22])
        var none = LevelCalibration()
        none.smoothingSeconds = 0
        #expect(none.smoothed(raw, ranges: ranges) == raw)
    }

    @Test func percentilesWeighSegmentsByDuration() {
        // One long quiet segment outweighs three short loud ones.
        let low = LevelCalibration.percentile([0.1, 0.9, 0.9, 0.9], durations: [30, 1, 1, 1], 0.5)
        #expect(low == 0.1)
    }

    @Test func highlightsAreRunsAtTheLevelMergedAcrossShortGaps() {
        let analysis = Self.analysis([
            (0, 2, 0, 10), (2, 4, 2, 20), (4, 6, 7, 30), (6, 8, 8, 40), (8, 9, 2, 50), (9, 11, 6.5, 60), (11, 16, 1, 70),
            (16, 20, 7, 80),
        ])
        // 4-8 and 9-11 are 1 s apart: one piece; 16-20 stands alone.
        #expect(Self.pairs(HighlightSelector.highlights(analysis, minimumLevel: nil)) == [[4, 11], [16, 20]])
        #expect(Self.pairs(HighlightSelector.highlights(analysis, minimumLevel: 7.5)) == [[6, 8]])
    }

    @Test func aShortPeakIsWidenedToTwoSeconds() {
        let analysis = Self.analysis([(0, 5, 1, 10), (5, 5.8, 9, 20), (5.8, 12, 1, 30)])
        let pieces = HighlightSelector.highlights(analysis, minimumLevel: nil)
        #expect(pieces.count == 1)
        #expect(abs((pieces.first?.duration.seconds ?? 0) - 2) < 0.01)
        #expect(pieces.first.map { $0.start.seconds <= 5 && $0.end.seconds >= 5.8 } == true)
    }

    @Test func repeatedContentIsChosenOnce() {
        // The same look (byte value 50) at 4-8 and at 24-28; the second is a little stronger.
        let analysis = Self.analysis([
            (0, 4, 1, 10), (4, 8, 8, 50), (8, 14, 1, 70), (14, 18, 7, 90), (18, 24, 1, 110), (24, 28, 8.5, 50), (28, 32, 1, 130),
        ])
        let pieces = Self.pairs(HighlightSelector.highlights(analysis, minimumLevel: nil))
        #expect(pieces == [[14, 18], [24, 28]])
    }

    @Test func aBudgetTakesTheStrongestDiverseSetAndCountsCrossfades() {
        var parts: [(Double, Double, Float, UInt8)] = []
        for index in 0..<30 {
            let start = Double(index) * 4
            // Strong moments at 8-12, 12-16 (beginning), 60-64 (middle) and 100-104 (end).
            let level: Float = [2, 3, 15, 25].contains(index) ? (index == 3 ? 9 : 8) : Float(index % 4)
            parts.append((start, start + 4, level, UInt8(index * 8)))
        }
        let analysis = Self.analysis(parts)
        var editing = HighlightEditing()
        editing.budget = 12
        let pieces = HighlightEditor.pieces(analysis, editing: editing)
        let total = pieces.map { (piece: TimeRange) in piece.duration.seconds }.reduce(0, +)
        #expect(total <= 12 + 1e-6)
        #expect(total >= 11)
        // One from each third: the beginning, the middle and the end all have strong moments.
        #expect(pieces.contains { $0.start.seconds < 40 })
        #expect(pieces.contains { $0.start.seconds >= 40 && $0.start.seconds < 80 })
        #expect(pieces.contains { $0.start.seconds >= 80 })
        #expect(pieces.allSatisfy { $0.duration.seconds >= 2 - 1e-6 })
        editing.crossfade = 0.5
        let faded = HighlightEditor.pieces(analysis, editing: editing)
        let fadedTotal = faded.map(\.duration.seconds).reduce(0, +) - 0.5 * Double(faded.count - 1)
        #expect(fadedTotal <= 12 + 1e-6)
        #expect(faded.map(\.duration.seconds).reduce(0, +) > total)
    }

    /// A blurred close-up (the beak against the lens) rated as high as sharp shots of the bird
    /// is not what the reel picks; the ending's own highlight is kept when the budget allows.
    @Test func blurredStretchesRankBelowClearOnesAndTheEndingIsKept() {
        var parts: [(Double, Double, Float, UInt8)] = []
        for index in 0..<12 { parts.append((Double(index) * 4, Double(index) * 4 + 4, index == 1 ? 9 : index == 5 ? 8.5 : index == 10 ? 6.5 : 2, UInt8(index * 20))) }
        var analysis = Self.analysis(parts)
        analysis.segments[1].features = EngagementScoringTests.features(sharpness: 0.004)
        for index in analysis.segments.indices where index != 1 { analysis.segments[index].features = EngagementScoringTests.features(sharpness: 0.06) }
        var editing = HighlightEditing()
        editing.budget = 4
        let one = HighlightEditor.pieces(analysis, editing: editing)
        #expect(one.count == 1 && one[0].start.seconds >= 20 && one[0].end.seconds <= 24.5, "the sharp 8.5, not the blurred 9: \(one)")
        editing.budget = 12
        let three = HighlightEditor.pieces(analysis, editing: editing)
        #expect(three.contains { $0.start.seconds >= 38 && $0.start.seconds < 44 }, "the ending's 6.5: \(three)")
    }

    /// The film's 60 s reel lost a 7.7 peak when a lead-in at 6.01 joined another run: the run,
    /// taken whole, spent the seconds the peak needed. A moment left out for room now takes the
    /// place of weaker material outside the chosen pieces' cores.
    @Test func aPeakLeftOutForRoomTakesThePlaceOfAWeakLeadIn() {
        var parts: [(Double, Double, Float, UInt8)] = [
            (0, 10, 8.5, 10), (10, 40, 1, 20),
            (40, 44, 6.01, 30), (44, 49, 8.3, 40), (49, 57, 1, 50), (57, 60, 6.6, 60), (60, 62.5, 7.7, 70), (62.5, 85, 1, 80),
            (85, 95, 8.4, 90), (95, 100, 1, 100), (100, 110, 8.0, 110),
        ]
        parts.append((110, 120, 1, 120))
        var editing = HighlightEditing()
        editing.budget = 40
        let pieces = HighlightEditor.pieces(Self.analysis(parts), editing: editing)
        #expect(pieces.contains { $0.start.seconds <= 60.5 && $0.end.seconds >= 62 }, "the 7.7 peak: \(Self.pairs(pieces))")
        #expect(pieces.contains { $0.start.seconds > 40.5 && $0.start.seconds <= 44 && $0.end.seconds >= 48.5 },
                "the 8.3 run keeps its core and gives up part of its lead-in: \(Self.pairs(pieces))")
        #expect(pieces.map(\.duration.seconds).reduce(0, +) <= 40.01)
    }

    @Test func aBudgetIsFilledEvenWhenNothingStandsOut() {
        let parts: [(Double, Double, Float, UInt8)] = (0..<20).map { index in
            let start = Double(index) * 3
            return (start, start + 3, Float(2 + index % 3), UInt8(index * 10))
        }
        let analysis = Self.analysis(parts)
        var editing = HighlightEditing()
        editing.budget = 10
        let pieces = HighlightEditor.pieces(analysis, editing: editing)
        let filled: Double = pieces.map { $0.duration.seconds }.reduce(0, +)
        #expect(abs(filled - 10) < 0.01)
        editing.fillsBelowLevel = false
        #expect(HighlightEditor.pieces(analysis, editing: editing).isEmpty)
    }

    /// The trailer's 30 s reel opened on 2.75 s of its fade-in (level 0) before the title:
    /// level-0 material never pads a budget, as a piece of its own or grown into.
    @Test func levelZeroNeverFillsABudget() {
        let parts: [(Double, Double, Float, UInt8)] = [(0, 4, 0, 10), (4, 10, 8, 20), (10, 14, 2, 30), (14, 20, 0, 40), (20, 24, 7, 50)]
        var editing = HighlightEditing()
        editing.budget = 20
        let pieces = HighlightEditor.pieces(Self.analysis(parts), editing: editing)
        #expect(!pieces.contains { $0.start.seconds < 3.9 || ($0.start.seconds < 19.9 && $0.end.seconds > 14.1) }, "\(Self.pairs(pieces))")
        #expect(pieces.contains { $0.start.seconds < 11 && $0.end.seconds > 13 }, "the level 2 fills: \(Self.pairs(pieces))")
    }

    @Test func aHighlightsTileShowsItsBestPictureNotItsMiddle() {
        var analysis = Self.analysis([(0, 4, 8, 10), (4, 8, 8, 20), (8, 12, 1, 30)])
        analysis.segments[0].posterTime = Self.seconds(1)
        analysis.segments[0].posterScore = 0.4
        analysis.segments[1].posterTime = Self.seconds(6.5)
        analysis.segments[1].posterScore = 0.7
        let range = TimeRange(start: .zero, end: Self.seconds(8))
        #expect(analysis.bestPicture(in: range).seconds == 6.5)
        // No qualifying sample inside: the middle.
        #expect(analysis.bestPicture(in: TimeRange(start: Self.seconds(8), end: Self.seconds(12))).seconds == 10)
    }
    /// A budget piece cut from a fixed, silent camera in whole segments (one-by-one's 51.8 s
    /// start, as a woman walks up to the table): its still end is trimmed first, and the budget
    /// that frees lets the start reach back to before the walk began, so the walk is seen whole.
    @Test func aTrimmedStillEndLendsItsBudgetToAMovementCutOff() {
        var analysis = Self.analysis([(0, 4, 2, 100), (4, 8, 8, 100), (8, 12, 2, 100), (12, 16, 2, 100)])
        // Still but for someone walking in from 3 s to 5 s (one block changing every sample).
        analysis.samples = stride(from: 0.0, to: 16, by: 0.25).map { time in
            var signature = [UInt8](repeating: 100, count: 224)
            signature[100] = UInt8(60 + 20 * Int(min(max(time - 3, 0), 2) * 4))
            return SampleSignature(time: Self.seconds(time), signature: signature)
        }
        var editing = HighlightEditing()
        editing.budget = 4
        editing.spansTheStory = false
        editing.fillsBelowLevel = false
        let pieces = HighlightEditor.pieces(analysis, editing: editing).map {
            [($0.start.seconds * 100).rounded() / 100, ($0.end.seconds * 100).rounded() / 100]
        }
        #expect(pieces == [[2.88, 5.5]])
    }

    /// A fixed, silent camera whose visits each end in a long still wait (a shop's table): the
    /// waits are cut out of the pieces, and the budget they held goes to further visits rather
    /// than being left unused; no piece keeps a wait.
    @Test func budgetFreedByCuttingStillWaitsGoesToMoreVisits() {
        // Ten visits of 8 s: someone moves for 3 s, then the picture is still for 5 s.
        let parts: [(Double, Double, Float, UInt8)] = (0..<10).map { (visit: Int) in
            let start = Double(visit) * 8
            let level: Float = visit % 2 == 0 ? 8 : 7
            return (start, start + 8, level, 100)
        }
        func moving(_ time: Double) -> Bool { time.truncatingRemainder(dividingBy: 8) < 3 }
        var analysis = Self.analysis(parts)
        analysis.samples = stride(from: 0.0, to: 80, by: 0.25).map { time in
            var signature = [UInt8](repeating: 100, count: 224)
            if moving(time) { signature[100] = Int(time * 4) % 2 == 0 ? 60 : 100 }
            return SampleSignature(time: Self.seconds(time), signature: signature)
        }
        var editing = HighlightEditing()
        editing.budget = 20
        editing.spansTheStory = false
        let pieces = HighlightEditor.pieces(analysis, editing: editing)
        let total = pieces.map { (piece: TimeRange) in piece.duration.seconds }.reduce(0, +)
        #expect(total > 17 && total <= 20 + 1e-3, "\(pieces)")
        for piece in pieces {
            let starts = stride(from: piece.start.seconds, to: piece.end.seconds - 2, by: 0.25)
            let still = starts.contains { (start: Double) in (0..<8).allSatisfy { !moving(start + Double($0) * 0.25) } }
            #expect(!still, "\(piece) keeps 2 s of stillness")
        }
    }
}
