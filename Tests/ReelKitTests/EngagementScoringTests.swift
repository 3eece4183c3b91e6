import Testing
@testable import ReelAnalysis
@testable import ReelCompression
@testable import ReelFrameReduction
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// Scoring, highlight selection, shot detection and key-frame choice on synthetic series.
@Suite(.timeLimit(.minutes(5))) struct EngagementScoringTests {
    static func features(motion: Double = 0, brightness: Double = 0.45, blank: Double = 0, loudness: Double = -100,
                         onsets: Double = 0, cuts: Double = 0, sharpness: Double = 0.05) -> SegmentFeatures {
        SegmentFeatures(motion: motion, sharpness: sharpness, brightness: brightness, contrast: 0.2, colorfulness: 0.2,
                        blankFraction: blank, loudness: loudness, onsetRate: onsets, cutsPerMinute: cuts)
    }

    let scorer = EngagementScorer(signals: EngagementWeights.standardSignals, weights: EngagementWeights(), hasAudio: true)

    @Test func actionOutranksStillsAndBlack() {
        let action = scorer.level(Self.features(motion: 0.1, loudness: -10, onsets: 3, cuts: 20))
        let still = scorer.level(Self.features(motion: 0.001, loudness: -60))
        let black = scorer.level(Self.features(brightness: 0.01, blank: 1))
        let dark = scorer.level(Self.features(motion: 0.1, brightness: 0.02, loudness: -10, onsets: 3))
        #expect(action > 7)
        #expect(still < 2.5)
        #expect(black == 0)
        #expect(dark < action / 2)
        #expect((0...9).contains(action))
    }

    @Test func eachSignalRaisesTheLevel() {
        let base = scorer.level(Self.features(loudness: -60))
        #expect(scorer.level(Self.features(motion: 0.05, loudness: -60)) > base)
        #expect(scorer.level(Self.features(loudness: -15)) > base)
        #expect(scorer.level(Self.features(loudness: -60, onsets: 2)) > base)
        #expect(scorer.level(Self.features(loudness: -60, cuts: 30)) > base)
        #expect(scorer.level(Self.features(loudness: -60, sharpness: 0.01)) < base)
    }

    @Test func weightsAreTunableAndAudioIsIgnoredWithoutAudio() {
        var weights = EngagementWeights()
        weights.weights = ["motion": 1]
        let motionOnly = EngagementScorer(signals: EngagementWeights.standardSignals, weights: weights, hasAudio: true)
        #expect(motionOnly.level(Self.features(motion: 0, loudness: 0, onsets: 3)) == 0)
        let silent = EngagementScorer(signals: EngagementWeights.standardSignals, weights: EngagementWeights(), hasAudio: false)
        let level = silent.level(Self.features(motion: 0.1, loudness: -100))
        #expect(level > scorer.level(Self.features(motion: 0.1, loudness: -100)))
    }

    @Test func highlightsAreAboveTheThresholdAndMerged() {
        func segment(_ start: Int, _ end: Int, _ level: Float) -> EngagementSegment {
            EngagementSegment(timeRange: TimeRange(start: MediaTime(value: Int64(start), timescale: 1),
                                                   end: MediaTime(value: Int64(end), timescale: 1)),
                              level: level, features: Self.features())
        }
        let segments = [segment(0, 2, 0), segment(2, 4, 2), segment(4, 6, 7), segment(6, 8, 8), segment(8, 10, 2), segment(10, 12, 6.5)]
        let ranges = HighlightSelector.highlights(segments, minimumLevel: nil)
        #expect(ranges.map { [$0.start.seconds, $0.end.seconds] } == [[4, 8], [10, 12]])
        #expect(HighlightSelector.highlights(segments, minimumLevel: 7.5).map(\.start.seconds) == [6])
        let dull = [segment(0, 2, 1), segment(2, 4, 2), segment(4, 6, 1.5)]
        #expect(HighlightSelector.highlights(dull, minimumLevel: nil).isEmpty)
    }

    @Test func adaptiveCutsIgnoreSteadyMotionButFindSpikes() {
        var changes = [Double](repeating: 0.004, count: 40)
        for index in 20..<40 { changes[index] = 0.05 }  // steady fast motion from frame 20
        changes[10] = 0.4  // a cut in a static stretch
        changes[20] = 0.35  // a cut into the motion
        changes[30] = 0.09  // a bump inside the motion: not a cut
        #expect(ShotDetector().cuts(changes) == [10, 20])
    }

    @Test func skippedFramesDoNotHideACutIntoFastMotion() {
        // Decoded every second frame after index 20 (non-reference frames skipped): the motion
        // changes span two frames each, the cut at 20 only one.
        var changes = [Double](repeating: 0.007, count: 30)
        var gaps = [Double](repeating: 1, count: 30)
        for index in 21..<30 {
            changes[index] = 0.16
            gaps[index] = 2
        }
        changes[20] = 0.2
        #expect(ShotDetector().cuts(changes) == [])
        #expect(ShotDetector().cuts(changes, gaps: gaps) == [20])
    }

    @Test func candidatesNeedAFullRateLookWhenFramesWereSkipped() {
        // Every third frame decoded. A cut from a still into fast motion changes the picture no
        // more than the motion does over three frames (differences saturate): a candidate to
        // check at full rate, not a confirmed cut.
        var changes = [Double](repeating: 0, count: 20)
        let gaps = [Double](repeating: 3, count: 20)
        for index in 10..<20 { changes[index] = 0.34 }
        changes[10] = 0.31
        let candidates = ShotDetector().candidates(changes, gaps: gaps)
        #expect(candidates.map(\.index) == [10])
        #expect(candidates.allSatisfy { !$0.confirmed })
    }

    @Test func saturatedMotionAtMixedGapsIsNoCandidate() {
        // A picture that changes completely every frame (like cellular automata): changes do not
        // grow with the gap, so a frame next to its neighbour must not look like a cut just
        // because its neighbours span four frames.
        let changes = [0.17, 0.17, 0.145, 0.172, 0.145, 0.171, 0.175, 0.171, 0.143, 0.184, 0.183, 0.178]
        let gaps: [Double] = [1, 4, 1, 3, 1, 4, 4, 2, 1, 4, 4, 4]
        #expect(ShotDetector().candidates(changes, gaps: gaps).isEmpty)
    }

    @Test func aCutRightAfterADecodedFrameIsConfirmed() {
        // The frame before the cut was decoded (gap 1); the new shot's motion spans four frames.
        var changes = [Double](repeating: 0.002, count: 16)
        var gaps = [Double](repeating: 4, count: 16)
        gaps[8] = 1
        changes[8] = 0.3
        for index in 9..<16 { changes[index] = 0.2 }
        let candidates = ShotDetector().candidates(changes, gaps: gaps)
        #expect(candidates.map(\.index) == [8])
        #expect(candidates.first?.confirmed == true)
    }

    @Test func segmentsSplitLongShotsEvenly() {
        let shot = TimeRange(start: .zero, end: MediaTime(value: 10, timescale: 1))
        let pieces = Segmenter(maximumDuration: 4).split([shot])
        #expect(pieces.count == 3)
        #expect(pieces.first?.start == .zero)
        #expect(pieces.last?.end == shot.end)
        for (a, b) in zip(pieces, pieces.dropFirst()) { #expect(a.end == b.start) }
    }

    @Test func keyFrameAvoidsBlankAndTransitionsAndFavoursTheLargestGroup() {
        func frame(_ tenth: Int, brightness: Double, sharpness: Double, contrast: Double = 0.2) -> FrameFeatures {
            FrameFeatures(time: MediaTime(value: Int64(tenth), timescale: 10), brightness: brightness, contrast: contrast,
                          sharpness: sharpness, colorfulness: 0.2, change: 0.01)
        }
        let frames = [frame(0, brightness: 0.01, sharpness: 0, contrast: 0.001)]
            + (1...6).map { frame($0, brightness: 0.5, sharpness: 0.02 + Double($0) * 0.005) }
            + (7...8).map { frame($0, brightness: 0.5, sharpness: 0.2) }
        let common = [UInt8](repeating: 100, count: 224), rare = [UInt8](repeating: 200, count: 224)
        let signatures = [common] + Array(repeating: common, count: 6) + [rare, rare]
        let chosen = KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: [])
        // The sharper pair is a minority look; the largest group's sharpest frame wins.
        #expect(chosen == MediaTime(value: 6, timescale: 10))
        let transition = ShotBoundary(time: MediaTime(value: 6, timescale: 10), kind: .gradual,
                                      transition: TimeRange(start: MediaTime(value: 5, timescale: 10), end: MediaTime(value: 7, timescale: 10)))
        let avoiding = KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: [transition])
        #expect(avoiding == MediaTime(value: 4, timescale: 10))
    }
}
