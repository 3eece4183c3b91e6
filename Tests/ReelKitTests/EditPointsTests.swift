import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelCompression
@testable import ReelKit
@testable import ReelSupport

/// Piece edges move to where an editor would cut: quiet shot boundaries, pauses in speech,
/// never the middle of a word; without sound, onto shot boundaries.
@Suite(.timeLimit(.minutes(5))) struct EditPointsTests {
    /// An envelope of `seconds` at 20 ms steps: speech (-20 dBFS, a 25 dB dip every 0.2 s
    /// between syllables would be a gap; here words run on) except in `pauses` (-70 dBFS).
    static func envelope(seconds: Double, pauses: [ClosedRange<Double>]) -> SoundEnvelope {
        let levels = (0..<Int(seconds / 0.02)).map { step -> Int8 in
            let time = Double(step) * 0.02 + 0.01
            return pauses.contains { $0.contains(time) } ? -70 : (step % 10 == 0 ? -26 : -20)
        }
        return SoundEnvelope(start: 0, step: 0.02, levels: levels, typical: -20)
    }

    private func range(_ start: Double, _ end: Double) -> TimeRange {
        TimeRange(start: MediaTime(seconds: start, timescale: 1000), end: MediaTime(seconds: end, timescale: 1000))
    }

    @Test func anEndMidSentenceMovesToThePauseAfterItNotOntoALoudCut() {
        // Speech runs over the cut at 6.5 s and stops at 7.8 s; the next cut, at 8.4 s, is in
        // the pause.
        let sound = Self.envelope(seconds: 12, pauses: [7.8...8.6])
        let pieces = EditPoints(boundaries: [4, 6.5, 8.4], sound: sound, bounds: 0...12).refined([range(1, 6.5)], budget: nil)
        #expect(abs(pieces[0].end.seconds - 8.4) < 1e-6, "\(pieces)")
        // Without a cut in the pause, the end goes a breath into it.
        let inside = EditPoints(boundaries: [4, 6.5], sound: sound, bounds: 0...12).refined([range(1, 6.5)], budget: nil)
        #expect(abs(inside[0].end.seconds - 7.92) < 0.03, "\(inside)")
        #expect(abs(pieces[0].start.seconds - 1) < 0.03 || pieces[0].start.seconds == 0)
    }

    /// Speech at -20 dBFS with dips to -34 dBFS (14 dB down, above the pause level) over `dips`.
    static func speech(seconds: Double, dips: [ClosedRange<Double>], pauses: [ClosedRange<Double>]) -> SoundEnvelope {
        let levels = (0..<Int(seconds / 0.02)).map { step -> Int8 in
            let time = Double(step) * 0.02 + 0.01
            return pauses.contains { $0.contains(time) } ? -70 : dips.contains { $0.contains(time) } ? -34 : -20
        }
        return SoundEnvelope(start: 0, step: 0.02, levels: levels, typical: -20)
    }

    /// A cut that falls in the 0.1 s between two words of a sentence is no place to end: the
    /// end goes on to the pause after the sentence. A 0.3 s gap in the sound is one.
    @Test func aCutInTheDipBetweenTwoWordsIsNoEnd() {
        let betweenWords = Self.speech(seconds: 12, dips: [6.45...6.55], pauses: [7.8...8.6])
        let moved = EditPoints(boundaries: [4, 6.5, 8.4], sound: betweenWords, bounds: 0...12).refined([range(1, 6.5)], budget: nil)
        #expect(abs(moved[0].end.seconds - 8.4) < 1e-6, "\(moved)")
        let gap = Self.speech(seconds: 12, dips: [6.35...6.65], pauses: [7.8...8.6])
        let kept = EditPoints(boundaries: [4, 6.5, 8.4], sound: gap, bounds: 0...12).refined([range(1, 6.5)], budget: nil)
        #expect(abs(kept[0].end.seconds - 6.5) < 1e-6, "\(kept)")
    }

    /// Two pieces 2 s apart in speech with no clean cut between them: the gap is kept (one
    /// piece) when the budget allows it, rather than a sentence cut between its words.
    @Test func aShortGapWithNoCleanCutIsKeptWhenTheBudgetAllows() {
        let edits = EditPoints(boundaries: [], sound: Self.speech(seconds: 30, dips: [], pauses: []), bounds: 0...30)
        let joined = edits.refined([range(10.5, 12.5), range(14.5, 18)], budget: nil)
        #expect(joined.count == 1 && joined[0].start.seconds < 12.5 && joined[0].end.seconds > 14.5, "\(joined)")
        #expect(edits.refined([range(10.5, 12.5), range(14.5, 18)], budget: 8).count == 1)
        let tight = edits.refined([range(10.5, 12.5), range(14.5, 18)], budget: 6)
        #expect(tight.count == 2, "no room for the gap: \(tight)")
        let far = edits.refined([range(10.5, 12.5), range(17.5, 20)], budget: nil)
        #expect(far.count == 2, "5 s apart: \(far)")
    }

    @Test func aQuietBoundaryIsTheCutAndABudgetKeepsEdgesFromGrowing() {
        let edits = EditPoints(boundaries: [3, 9], sound: Self.envelope(seconds: 12, pauses: [2.8...3.3, 9.5...10]), bounds: 0...12)
        // The start at 3.4 s moves back onto the quiet boundary at 3 s.
        #expect(abs(edits.refined([range(3.4, 8)], budget: nil)[0].start.seconds - 3) < 1e-6)
        // With no room left in the budget, the end at 9.2 s may only move earlier, to the pause
        // before it (none within reach): it stays within the budget.
        let tight = edits.refined([range(3.4, 9.2)], budget: 5.8)
        #expect(tight[0].duration.seconds <= 5.8 + 1e-6, "\(tight)")
    }

    @Test func withoutSoundEdgesSnapToShotBoundariesNearby() {
        let edits = EditPoints(boundaries: [2, 5.3], sound: nil, bounds: 0...10)
        let pieces = edits.refined([range(2.4, 5)], budget: nil)
        #expect(Self.rounded(pieces) == [[2, 5.3]])
        #expect(Self.rounded(edits.refined([range(3, 4.5)], budget: nil)) == [[3, 4.5]], "nothing within 0.5 s")
    }

    /// A film's score runs over everything: with no pause within reach an edge goes onto a shot
    /// boundary, however far within reach (the sound joins under a short crossfade), else into
    /// the nearest low between sounds, not left where it was.
    @Test func withoutAPauseInReachAnEdgeTakesABoundaryElseALowInTheSound() {
        let levels = (0..<600).map { step -> Int8 in
            let time = Double(step) * 0.02 + 0.01
            return (5.1...5.3).contains(time) ? -34 : -20
        }
        let music = SoundEnvelope(start: 0, step: 0.02, levels: levels, typical: -20)
        #expect(music.pauses(overlapping: 0...12).isEmpty, "a low in music is not a pause")
        let low = EditPoints(boundaries: [1, 11], sound: music, bounds: 0...12).refined([range(6, 10)], budget: nil)
        #expect((5.1...5.3).contains(low[0].start.seconds), "\(low)")
        let boundary = EditPoints(boundaries: [1, 4.6, 11], sound: music, bounds: 0...12).refined([range(6, 10)], budget: nil)
        #expect(abs(boundary[0].start.seconds - 4.6) < 1e-6, "\(boundary)")
    }

    /// Nothing but even music within reach: a boundary twice as far out is the cut, and a piece
    /// with no room to grow (a budget's) gives up to a third of itself inward to start on one,
    /// rather than on a low between sounds mid-shot. (A low with no boundary that near is kept:
    /// see the test above.)
    @Test func withNothingCleanInReachAnEdgeLooksFartherForABoundary() {
        let flat = SoundEnvelope(start: 0, step: 0.02, levels: [Int8](repeating: -20, count: 600), typical: -20)
        let outward = EditPoints(boundaries: [1, 3.5, 11], sound: flat, bounds: 0...12).refined([range(6, 10)], budget: nil)
        #expect(abs(outward[0].start.seconds - 3.5) < 1e-6, "\(outward)")
        // A 6 s piece filling its budget: a boundary 1.6 s in (past the usual 1 s reach).
        let inward = EditPoints(boundaries: [1, 5.6, 11.5], sound: flat, bounds: 0...12).refined([range(4, 10)], budget: 6)
        #expect(abs(inward[0].start.seconds - 5.6) < 1e-6 && inward[0].duration.seconds <= 6 + 1e-6, "\(inward)")
        // Farther than a third of the piece, the edge stays where it was.
        let none = EditPoints(boundaries: [1, 6.5, 11.5], sound: flat, bounds: 0...12).refined([range(4, 10)], budget: 6)
        #expect(none[0].start.seconds < 4.6, "\(none)")
        // A low 0.5 s in, a boundary 1.6 s in: the piece starts with its shot.
        let dipped = SoundEnvelope(start: 0, step: 0.02, levels: (0..<600).map { (224...229).contains($0) ? -34 : -20 }, typical: -20)
        let onShot = EditPoints(boundaries: [1, 5.6, 11.5], sound: dipped, bounds: 0...12).refined([range(4, 10)], budget: 6)
        #expect(abs(onShot[0].start.seconds - 5.6) < 1e-6, "\(onShot)")
        // A low a few frames before a shot's end, where the budget left no room for them, is
        // as good as the cut: the piece is not shortened to the boundary 1.4 s before.
        let nearCut = SoundEnvelope(start: 0, step: 0.02, levels: (0..<600).map { (488...495).contains($0) ? -34 : -20 }, typical: -20)
        let kept = EditPoints(boundaries: [1, 8.5, 10, 11.5], sound: nearCut, bounds: 0...12).refined([range(4, 9.85)], budget: 5.85)
        #expect((9.75...10).contains(kept[0].end.seconds), "\(kept)")
    }

    /// A shot under 0.75 s (a fade's dark tail, a flash) is not opened or closed on: a start
    /// moves past such fragments, an end before them.
    @Test func noPieceOpensOrClosesOnAFragment() {
        let flat = SoundEnvelope(start: 0, step: 0.02, levels: [Int8](repeating: -20, count: 600), typical: -20)
        let edits = EditPoints(boundaries: [1, 5, 5.6, 5.8, 11], sound: flat, bounds: 0...12)
        #expect(Self.rounded(edits.refined([range(5.2, 10)], budget: nil))[0][0] == 5.8)
        #expect(Self.rounded(edits.refined([range(1.5, 5.9)], budget: nil))[0][1] == 5)
    }

    /// Without sound, an edge in movement (someone mid-stride) moves to where the picture
    /// holds still within reach, so the movement is seen whole; an edge already in a still
    /// stretch stays, and a shot boundary nearby comes first.
    @Test func withoutSoundAnEdgeInMovementMovesToStillness() {
        let spans = [0.0...1.83, 4.0...7.83]
        let edits = EditPoints(boundaries: [], sound: nil, bounds: 0...8, stillSpans: spans)
        #expect(Self.rounded(edits.refined([range(1, 3)], budget: nil)) == [[1, 4.12]])
        #expect(Self.rounded(edits.refined([range(2.5, 7)], budget: nil)) == [[1.71, 7]])
        let cut = EditPoints(boundaries: [2.3], sound: nil, bounds: 0...8, stillSpans: spans)
        #expect(Self.rounded(cut.refined([range(2.5, 7)], budget: nil)) == [[2.3, 7]])
        // Out of reach (the stillness 5 s away, past twice the reach), the edge stays where it was.
        let far = EditPoints(boundaries: [], sound: nil, bounds: 0...16, stillSpans: [0...1, 12.5...16])
        #expect(Self.rounded(far.refined([range(6, 8)], budget: nil)) == [[6, 8]])
    }

    /// one-by-one's 30 s reel ended as a man walked in (23.4 s; he reaches the table 2.4 s
    /// later): an end in movement with no stillness within the usual reach looks twice as far
    /// outward, budget allowing, so the walk is seen whole. Never farther inward than usual: a
    /// scene whose walkers never stop keeps its edges rather than losing seconds of them.
    @Test func withoutSoundAMovementRunningPastTheReachIsSeenWhole() {
        let edits = EditPoints(boundaries: [], sound: nil, bounds: 0...40, stillSpans: [8.2...17.7, 20.4...22.5, 25.7...40])
        #expect(Self.rounded(edits.refined([range(17.2, 23.4)], budget: nil)) == [[17.2, 25.82]])
        #expect(Self.rounded(edits.refined([range(17.2, 23.4)], budget: 8.7)) == [[17.2, 25.82]])
        #expect(Self.rounded(edits.refined([range(17.2, 23.4)], budget: 7)) == [[17.2, 23.4]], "no room: the edge stays")
        let walkers = EditPoints(boundaries: [], sound: nil, bounds: 0...80, stillSpans: [30...31, 49...49.5, 60...61])
        #expect(Self.rounded(walkers.refined([range(40, 52)], budget: nil)) == [[40, 52]], "stillness 2.9 s inward is not taken")
    }

    @Test func anEnvelopeSurvivesASavedAnalysis() throws {
        var analysis = HighlightEditorTests.analysis([(0, 4, 7, 10)])
        analysis.sound = Self.envelope(seconds: 4, pauses: [1...2])
        let decoded = try JSONDecoder().decode(VideoAnalysis.self, from: JSONEncoder().encode(analysis))
        #expect(decoded.sound == analysis.sound)
        #expect(decoded.sound?.pauses(overlapping: 0...4).count == 1)
    }

    static func rounded(_ ranges: [TimeRange]) -> [[Double]] {
        ranges.map { [($0.start.seconds * 100).rounded() / 100, ($0.end.seconds * 100).rounded() / 100] }
    }

    /// On real dialogue: Megamind.avi's speech runs over the cut at 6.46 s and ends at 7.8 s;
    /// a piece ending on that cut ends in the pause after the sentence instead, and its last
    /// 0.1 s of sound is quiet. The reel itself is the man's speaking close-up, to the end.
    @Test func megamindsPiecesEndAfterTheSentence() async throws {
        let film = try await offPool { try FaceFixtures.footage("Megamind.avi") }
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: film))
        let sound = try #require(analysis.sound)
        #expect(!sound.isQuiet(at: 6.46), "the cut at 6.46 s is mid-sentence")
        let edits = EditPoints(boundaries: analysis.boundaries.map(\.time.seconds), sound: sound, bounds: 0...analysis.duration)
        let piece = try #require(edits.refined([range(4.13, 6.465)], budget: nil).first)
        #expect(piece.end.seconds > 7.8 && piece.end.seconds <= 8.39, "\(piece)")
        #expect(sound.isQuiet(at: piece.end.seconds))
        let reel = HighlightEditor.pieces(analysis, editing: HighlightEditing())
        let last = try #require(reel.last)
        #expect(last.end.seconds > 11.2 || (last.end.seconds > 7.8 && sound.isQuiet(at: last.end.seconds)), "\(reel)")
    }

    /// OpenCV's vtest.avi (a fixed camera) and a fast config asking for a 12 s highlight reel
    /// of it into a fresh scratch directory.
    static func twelveSecondReelOfVtest(scratch: String) async throws -> (URL, CompressionConfig) {
        let camera = try await offPool { try FaceFixtures.footage("vtest.avi") }
        var config = Harness.fastConfig(in: try Fixtures.scratchDirectory(scratch))
        config.outputURL = config.outputDirectory?.appendingPathComponent(UUID().uuidString + ".mp4")
        config.trim = .highlights(HighlightReelOptions(maximumDuration: 12))
        return (camera, config)
    }

    /// vtest.avi is a fixed surveillance camera: joined pieces would make people jump in place,
    /// so the reel's joins dissolve, within the budget; the film's joins between scenes stay cuts.
    @Test func aFixedCamerasJoinsDissolve() async throws {
        let (camera, config) = try await Self.twelveSecondReelOfVtest(scratch: "jump-cuts")
        let plan = try await VideoCompressor().plan(camera, config: config)
        #expect(plan.keptRanges.count >= 2, "\(plan.keptRanges)")
        #expect(plan.config.crossfadeDuration == HighlightReelTrim.jumpCutDissolve)
        #expect(plan.dissolvingJoins == Array(0..<(plan.keptRanges.count - 1)), "every join of a fixed camera dissolves")
        let result = try await VideoCompressor().compress(plan)
        let kept = plan.keptRanges.map { $0.duration.seconds }.reduce(0, +)
        let expected = kept - Double(plan.keptRanges.count - 1) * HighlightReelTrim.jumpCutDissolve
        let duration: Double = try MediaInfo.probe(result.url).duration
        #expect(abs(duration - expected) < 0.25, "\(duration) s for \(expected) s")
        // The dissolves' overlap is planned into the budget: the reel plays for the 12 s asked,
        // not 10.5 s.
        #expect(expected <= 12 + 1e-3 && expected > 11.5, "\(expected) s of 12")
        let analysis = try #require(plan.analysis)
        let scenes = [TimeRange(start: .zero, end: MediaTime(seconds: 3, timescale: 1000)),
                      TimeRange(start: MediaTime(seconds: 40, timescale: 1000), end: MediaTime(seconds: 43, timescale: 1000))]
        #expect(JoinLooks.jumpCuts(scenes, in: analysis) == [true], "two stretches of one fixed camera")
    }

    /// Reframed to 9:16, vtest's pieces frame walkers in different parts of the square: where
    /// the windows either side of a join stand apart, a dissolve would show the path and the
    /// lamp post twice, so the join cuts at the dissolve's middle; the reel lasts as long.
    @Test func aReframedFixedCameraCutsWhereItsWindowsStandApart() async throws {
        let (camera, reelConfig) = try await Self.twelveSecondReelOfVtest(scratch: "reframed-joins")
        var config = reelConfig
        let wide = try await VideoCompressor().plan(camera, config: config)
        let analysis = try #require(wide.analysis)
        config.trim = .highlights(HighlightReelOptions(maximumDuration: 12, analysis: analysis))
        config.reframing = Reframing(aspect: .vertical)
        let tall = try await VideoCompressor().plan(camera, config: config)
        let dissolve = HighlightReelTrim.jumpCutDissolve
        #expect(tall.keptRanges.count == wide.keptRanges.count && wide.dissolvingJoins.count == wide.keptRanges.count - 1)
        let cuts = Set(wide.dissolvingJoins).subtracting(tall.dissolvingJoins)
        #expect(!cuts.isEmpty && Set(tall.dissolvingJoins).isSubset(of: Set(wide.dissolvingJoins)), "\(tall.dissolvingJoins)")
        for join in cuts {
            #expect(abs((wide.keptRanges[join].end - tall.keptRanges[join].end).seconds - dissolve / 2) < 0.07)
            #expect(abs((tall.keptRanges[join + 1].start - wide.keptRanges[join + 1].start).seconds - dissolve / 2) < 0.07)
        }
        func plays(_ plan: CompressionPlan) -> Double { plan.keptDuration - Double(plan.dissolvingJoins.count) * dissolve }
        #expect(abs(plays(tall) - plays(wide)) < 0.15, "\(plays(tall)) s against \(plays(wide)) s")
        // Where the reel cuts, the windows stand apart; where it dissolves, they meet mid-dissolve.
        let path = try #require(tall.config.reframing?.path)
        func left(_ seconds: Double) -> Double { Double(path.window(at: seconds)?.minX ?? -1) }
        for join in cuts {
            let shift = abs(left(tall.keptRanges[join].end.seconds - 0.01) - left(tall.keptRanges[join + 1].start.seconds))
            #expect(shift > ReframedJoins.largestShift * path.windowWidth, "join \(join) moves \(shift)")
        }
        for join in tall.dissolvingJoins {
            let shift = abs(left(tall.keptRanges[join].end.seconds - dissolve / 2) - left(tall.keptRanges[join + 1].start.seconds + dissolve / 2))
            #expect(shift <= ReframedJoins.largestShift * path.windowWidth, "join \(join) moves \(shift)")
        }
        let result = try await VideoCompressor().compress(tall)
        let duration: Double = try MediaInfo.probe(result.url).duration
        #expect(abs(duration - plays(tall)) < 0.25, "\(duration) s for \(plays(tall)) s")
    }

    /// A fixed camera with someone large in front of it (one-by-one's visitors at the table):
    /// the mean difference across the join is large, but most of the picture, the background,
    /// is unchanged. That join would make them teleport: it dissolves. A new shot cuts.
    @Test func aJoinOverTheSameBackgroundIsAJumpWhoeverStandsInFront() {
        func sample(_ time: Double, _ signature: [UInt8]) -> SampleSignature {
            SampleSignature(time: MediaTime(seconds: time, timescale: 1000), signature: signature)
        }
        let background = [UInt8](repeating: 120, count: 224)
        var visitor = background, otherVisitor = background, elsewhere = background
        for block in 0..<20 { visitor[block] = 20; otherVisitor[block + 100] = 230 }
        for block in 0..<112 { elsewhere[block] = 10 }
        var analysis = HighlightEditorTests.analysis([(0, 4, 7, 50), (4, 8, 7, 50), (8, 12, 7, 50)])
        analysis.samples = [sample(1, visitor), sample(5, otherVisitor), sample(9, elsewhere)]
        #expect(PictureMeasurer.difference(visitor, otherVisitor) > JoinLooks.sameFraming)
        let pieces = [(0.5, 2.0), (4.5, 6.0), (8.5, 10.0)].map {
            TimeRange(start: MediaTime(seconds: $0.0, timescale: 1000), end: MediaTime(seconds: $0.1, timescale: 1000))
        }
        #expect(JoinLooks.jumpCuts(pieces, in: analysis) == [true, false])
    }

    /// A camera's automatic exposure brightens the whole background when someone dark fills
    /// the middle (one-by-one: the wall 20 levels brighter with a man in black at the table
    /// than with the table empty). The join is still over the same background, and dissolves;
    /// the same change of brightness over a different picture is still a cut.
    @Test func aJoinOverTheSameBackgroundDissolvesWhateverTheExposure() {
        func sample(_ time: Double, _ signature: [UInt8]) -> SampleSignature {
            SampleSignature(time: MediaTime(seconds: time, timescale: 1000), signature: signature)
        }
        let lumaBlocks = SampledFrameCollector.lumaBlocks
        let empty = (0..<224).map { UInt8($0 < lumaBlocks ? 90 + ($0 * 7) % 100 : 128) }
        var visitor = empty.enumerated().map { index, value in index < lumaBlocks ? value + 20 : value }
        for block in [40, 41, 56, 57, 72, 73, 88, 89, 104, 105] { visitor[block] = 15 }
        let elsewhere = (0..<224).map { UInt8($0 < lumaBlocks ? 190 - ($0 * 13) % 100 : 128) }
        #expect(StillEnds.unchangedShare(visitor, empty) < JoinLooks.sameBackground, "unadjusted, the exposure reads as a new scene")
        var analysis = HighlightEditorTests.analysis([(0, 4, 7, 50), (4, 8, 7, 50), (8, 12, 7, 50)])
        analysis.samples = [sample(1, visitor), sample(5, empty), sample(9, elsewhere)]
        let pieces = [(0.5, 2.0), (4.5, 6.0), (8.5, 10.0)].map {
            TimeRange(start: MediaTime(seconds: $0.0, timescale: 1000), end: MediaTime(seconds: $0.1, timescale: 1000))
        }
        #expect(JoinLooks.jumpCuts(pieces, in: analysis) == [true, false])
    }
}
