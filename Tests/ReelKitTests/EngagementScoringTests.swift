import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelSupport

/// Scoring, highlight selection, shot detection and key-frame choice on synthetic series.
@Suite(.timeLimit(.minutes(5))) struct EngagementScoringTests {
    static func features(motion: Double = 0, brightness: Double = 0.45, blank: Double = 0, loudness: Double = -100,
                         onsets: Double = 0, cuts: Double = 0, sharpness: Double = 0.05, subject: Double = 0.3,
                         camera: Double = 0, above: Double = 0, burst: Double = 0, text: Double = 0) -> SegmentFeatures {
        var features = SegmentFeatures(
            motion: motion, sharpness: sharpness, brightness: brightness, contrast: 0.2, colorfulness: 0.2,
            blankFraction: blank, loudness: loudness, onsetRate: onsets, cutsPerMinute: cuts)
        features.subjectMotion = motion
        features.cameraMotion = camera
        features.subject = subject
        features.loudnessAboveTypical = above
        features.burst = burst
        features.textShare = text
        return features
    }

    let scorer = EngagementScorer(signals: EngagementWeights.standardSignals, weights: EngagementWeights(), hasAudio: true)

    @Test func actionOutranksStillsAndBlack() {
        let action = scorer.raw(Self.features(motion: 0.08, loudness: -15, onsets: 3, cuts: 20, subject: 0.9, above: 8))
        let still = scorer.raw(Self.features(motion: 0.001, loudness: -60, subject: 0.1))
        let black = scorer.raw(Self.features(brightness: 0.01, blank: 1))
        let dark = scorer.raw(Self.features(motion: 0.08, brightness: 0.02, loudness: -15, onsets: 3, subject: 0.9, above: 8))
        #expect(action > 0.65)
        #expect(still < 0.3)
        #expect(black == 0)
        #expect(dark < action / 2)
        #expect((0...1).contains(action))
    }

    /// The same dialogue scores higher in a close-up than in a medium shot; a close-up over
    /// music alone gets nothing from the speaking-face cue.
    @Test func aSpeakingCloseUpEngagesMoreThanTheMediumShot() {
        func dialogue(faceArea: Double, speech: Double) -> SegmentFeatures {
            var features = Self.features(motion: 0.012, loudness: -30, onsets: 2, subject: 0.4)
            features.faceShare = 1
            features.faceArea = faceArea
            features.faceCentrality = 0.9
            features.speechLikeness = speech
            return features
        }
        let closeUp = dialogue(faceArea: 0.16, speech: 1), medium = dialogue(faceArea: 0.05, speech: 1)
        #expect(scorer.raw(closeUp) > scorer.raw(medium) + 0.05, "\(scorer.raw(closeUp)) vs \(scorer.raw(medium))")
        #expect(SpeakingFaceSignal().score(closeUp) == 1)
        #expect(SpeakingFaceSignal().score(dialogue(faceArea: 0.16, speech: 0)) == 0)
        #expect(SpeakingFaceSignal().score(dialogue(faceArea: 0.01, speech: 1)) == 0, "a face far away")
    }

    @Test func aPanOverEmptySceneryIsNotAction() {
        // The raw picture change is high, but once the camera's movement is undone little moves,
        // and nothing stands out of the scenery.
        var pan = Self.features(subject: 0.05, camera: 0.08)
        pan.motion = 0.08
        pan.subjectMotion = 0.003
        let character = Self.features(motion: 0.03, subject: 0.7)
        #expect(scorer.raw(character) > scorer.raw(pan) + 0.2)
    }

    @Test func creditsAndTitlesAreHeldDown() {
        let credits = scorer.raw(Self.features(motion: 0.04, subject: 0.3, text: 1))
        let scene = scorer.raw(Self.features(motion: 0.04, subject: 0.3))
        #expect(credits < scene * 0.3)
    }

    @Test func eachSignalRaisesTheLevel() {
        let base = scorer.raw(Self.features(loudness: -30))
        #expect(scorer.raw(Self.features(motion: 0.05, loudness: -30)) > base)
        #expect(scorer.raw(Self.features(loudness: -30, subject: 0.9)) > base)
        #expect(scorer.raw(Self.features(loudness: -30, above: 6)) > base)
        #expect(scorer.raw(Self.features(loudness: -30, burst: 10)) > base)
        #expect(scorer.raw(Self.features(loudness: -30, onsets: 2)) > base)
        #expect(scorer.raw(Self.features(loudness: -30, cuts: 30)) > base)
        #expect(scorer.raw(Self.features(loudness: -30, sharpness: 0.01)) < base)
        var face = Self.features(loudness: -30)
        face.faceShare = 1
        face.faceArea = 0.08
        face.faceCentrality = 1
        #expect(scorer.raw(face) > base)
        // Near silence is not loud, whatever the baseline.
        #expect(scorer.raw(Self.features(loudness: -70, above: 6)) < scorer.raw(Self.features(loudness: -30, above: 6)))
    }

    @Test func speechAlternatesWhileMusicHoldsItsEnergy() {
        // Three seconds of 20 ms steps: syllables (energy peaking in the vowel) every 260 ms with
        // short pauses between, against a steady tone with a gentle swell.
        let speech: [Float] = (0..<150).map { step in
            let envelope = max(0, 1 - abs(Float(step % 13) - 4) / 3)
            return 0.03 * envelope * envelope + 0.0003
        }
        let music: [Float] = (0..<150).map { 0.01 * (1 + 0.3 * Float(sin(Double($0) / 8))) }
        #expect(SegmentAggregator.speechLikeness(speech) > 0.8)
        #expect(SegmentAggregator.speechLikeness(music) == 0)
        #expect(SegmentAggregator.speechLikeness([Float](repeating: 0, count: 150)) == 0)
    }

    @Test func weightsAreTunableAndAudioIsIgnoredWithoutAudio() {
        var weights = EngagementWeights()
        weights.weights = ["motion": 1]
        let motionOnly = EngagementScorer(signals: EngagementWeights.standardSignals, weights: weights, hasAudio: true)
        #expect(motionOnly.raw(Self.features(motion: 0, loudness: 0, onsets: 3, above: 10)) == 0)
        let silent = EngagementScorer(signals: EngagementWeights.standardSignals, weights: EngagementWeights(), hasAudio: false)
        let raw = silent.raw(Self.features(motion: 0.1, loudness: -100))
        #expect(raw > scorer.raw(Self.features(motion: 0.1, loudness: -100)))
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

    static func frame(_ tenth: Int, brightness: Double = 0.5, sharpness: Double = 0.05, contrast: Double = 0.2,
                      subject: Double = 0.5, text: Double = 0) -> FrameFeatures {
        var frame = FrameFeatures(time: MediaTime(value: Int64(tenth), timescale: 10), brightness: brightness, contrast: contrast,
                                  sharpness: sharpness, colorfulness: 0.2, change: 0.01)
        frame.subject = subject
        frame.textLikeness = text
        return frame
    }

    @Test func keyFrameAvoidsBlankTextAndTransitions() {
        let frames = [Self.frame(0, brightness: 0.01, sharpness: 0, contrast: 0.001)]
            + (1...6).map { Self.frame($0, sharpness: 0.02 + Double($0) * 0.005) }
            + [Self.frame(7, sharpness: 0.3, subject: 1, text: 1)]
        let signatures = [[UInt8]](repeating: [UInt8](repeating: 100, count: 224), count: frames.count)
        // The sharpest frame is a title card: left out; the sharpest picture wins.
        #expect(KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: []) == MediaTime(value: 6, timescale: 10))
        let transition = ShotBoundary(time: MediaTime(value: 6, timescale: 10), kind: .gradual,
                                      transition: TimeRange(start: MediaTime(value: 5, timescale: 10), end: MediaTime(value: 7, timescale: 10)))
        let avoiding = KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: [transition])
        #expect(avoiding == MediaTime(value: 4, timescale: 10))
    }

    @Test func keyFramePrefersASubjectAndAWholeFace() {
        let signatures = [[UInt8]](repeating: [UInt8](repeating: 100, count: 224), count: 3)
        // Equally sharp: empty scenery, a character, a face cut by the top edge.
        var frames = [Self.frame(1, subject: 0.05), Self.frame(2, subject: 0.8), Self.frame(3, subject: 0.8)]
        #expect(KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: []) != MediaTime(value: 1, timescale: 10))
        frames[1].faces = FacePresence(boxes: [CGRect(x: 0.4, y: 0.3, width: 0.2, height: 0.3)])
        frames[2].faces = FacePresence(boxes: [CGRect(x: 0.4, y: 0, width: 0.2, height: 0.3)])
        #expect(KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: []) == MediaTime(value: 2, timescale: 10))
    }

    @Test func keyFrameComesFromASteadyStretchNotALonePeak() {
        // Six samples a second: one sample with a clear subject between weak ones (0.5 s), and
        // a stretch where every sample shows a slightly weaker subject (1.7-2.3 s).
        let subjects: [Double] = [0.1, 0.1, 0.1, 1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.8, 0.8, 0.8, 0.8, 0.8]
        let frames = subjects.enumerated().map { sample, subject in
            var frame = Self.frame(0, subject: subject)
            frame.time = MediaTime(value: Int64(sample), timescale: 6)
            return frame
        }
        let signatures = [[UInt8]](repeating: [UInt8](repeating: 100, count: 224), count: frames.count)
        let scored = KeyFrameSelector.scores(frames: frames, signatures: signatures, boundaries: [], segments: [])
        let chosen = KeyFrameSelector.best(of: scored, in: frames)
        #expect(chosen.map { (10...14).contains(Int(($0.seconds * 6).rounded())) } == true, "\(String(describing: chosen))")
        // Alone, the peak would win: steadying is what moves the choice.
        let lone = KeyFrameSelector.scores(frames: [frames[3], frames[12]], signatures: [signatures[3], signatures[12]],
                                           boundaries: [], segments: [])
        #expect(KeyFrameSelector.best(of: lone, in: [frames[3], frames[12]]) == frames[3].time)
        // Samples farther apart than the span do not mix.
        let steadied = KeyFrameSelector.steadied([(0, 1.0), (1, 0.0)], in: [frames[0], frames[9]])
        #expect(steadied.map(\.score) == [1.0, 0.0])
    }

    @Test func aboveTheHighlightLevelThePictureDecides() {
        // A slightly sharper picture at level 6 against a softer one at level 9: the sharper wins
        // (it lost while every level up to 9 counted); at level 2 it loses.
        let signatures = [[UInt8]](repeating: [UInt8](repeating: 100, count: 224), count: 2)
        let frames = [Self.frame(10, sharpness: 0.06), Self.frame(30, sharpness: 0.05)]
        func segments(_ first: Float) -> [EngagementSegment] {
            [EngagementSegment(timeRange: TimeRange(start: .zero, end: MediaTime(value: 2, timescale: 1)), level: first,
                               features: Self.features()),
             EngagementSegment(timeRange: TimeRange(start: MediaTime(value: 2, timescale: 1), end: MediaTime(value: 4, timescale: 1)),
                               level: 9, features: Self.features())]
        }
        #expect(KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: [], segments: segments(6)) == frames[0].time)
        #expect(KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: [], segments: segments(2)) == frames[1].time)
    }

    @Test func keyFrameComesFromAnEngagingPart() {
        let frames = [Self.frame(1), Self.frame(2), Self.frame(30), Self.frame(31)]
        let signatures = [[UInt8]](repeating: [UInt8](repeating: 100, count: 224), count: 4)
        let segments = [
            EngagementSegment(timeRange: TimeRange(start: .zero, end: MediaTime(value: 2, timescale: 1)), level: 1,
                              features: Self.features()),
            EngagementSegment(timeRange: TimeRange(start: MediaTime(value: 2, timescale: 1), end: MediaTime(value: 4, timescale: 1)),
                              level: 8, features: Self.features()),
        ]
        let chosen = KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: [], segments: segments)
        #expect(chosen.map { $0.seconds >= 2 } == true)
    }

    /// A 16x9 luma signature (plus chroma) of 100 everywhere, with the blocks in `columns` x
    /// `rows` set to 220.
    static func signature(marking columns: ClosedRange<Int>? = nil, rows: ClosedRange<Int>? = nil) -> [UInt8] {
        var signature = [UInt8](repeating: 100, count: 224)
        for y in rows.map(Array.init) ?? [] { for x in columns.map(Array.init) ?? [] { signature[y * 16 + x] = 220 } }
        return signature
    }

    @Test func edgeIntrusionMarksWhatTheEdgeCuts() {
        let frames = (0..<10).map { Self.frame($0 * 2) }
        var signatures = [[UInt8]](repeating: Self.signature(), count: 10)
        signatures[4] = Self.signature(marking: 11...15, rows: 0...3)  // a hand reaching in at the top right
        signatures[6] = Self.signature(marking: 6...9, rows: 3...5)    // something inside the picture
        let intrusion = EdgeIntrusion.measure(frames: frames, signatures: signatures, boundaries: [])
        #expect(intrusion[4] > 0.3, "\(intrusion)")
        #expect(intrusion[6] == 0)
        #expect(intrusion.enumerated().allSatisfy { $0.offset == 4 || $0.element == 0 })
        // Too short a shot has no usual look: a cut after the fifth sample leaves two short shots.
        let split = EdgeIntrusion.measure(frames: frames, signatures: signatures, boundaries: [MediaTime(value: 9, timescale: 10)])
        #expect(split.allSatisfy { $0 == 0 }, "\(split)")
        // The poster avoids the sample with the hand, equal in every other way.
        var sharper = frames
        sharper[4].sharpness = 0.06
        let chosen = KeyFrameSelector.select(frames: sharper, signatures: signatures, boundaries: [])
        #expect(chosen != sharper[4].time)
    }
}
