import Foundation
import ReelSupport

/// Moves the edges of a reel's pieces to where an editor would cut: a shot boundary where
/// nothing is said, else a pause in the speech (or a low in the sound) inside the shot; never
/// the middle of a word; without sound, where the picture holds still. Ends may move later
/// (the sentence finishes) more readily than earlier, starts earlier more readily than later,
/// each within reach, without overlapping the other pieces or leaving a budget.
struct EditPoints {
    /// Shot boundaries, seconds, in order.
    var boundaries: [Double]
    /// The sound's level; `nil` (or no sound above the pause level) cuts on the picture alone.
    var sound: SoundEnvelope?
    /// The video's extent, seconds.
    var bounds: ClosedRange<Double>
    /// Without sound: where the picture holds still (seconds, in order), the silent video's
    /// pauses; an edge in movement moves to one within reach (`StillEnds.stillSpans`).
    var stillSpans: [ClosedRange<Double>] = []
    /// Without sound: edges within this of a shot boundary move onto it.
    var snapDistance = 0.5
    /// How far an edge may move outward (lengthening its piece) and inward, seconds.
    var reachOutward = 2.0
    var reachInward = 1.0
    /// No piece is made shorter than this (or than it was, when it was shorter).
    var minimumPiece = 2.0
    /// Where in a pause an edge goes: this far into it from the speech it follows or precedes
    /// (a breath after the last word; at most half the pause).
    var pauseLead = 0.12

    enum Side { case start, end }

    /// `ranges` (in time order, not overlapping) with every edge moved to a cut point; with a
    /// `budget` (seconds, less `joinOverlap` per join), the total never grows past it.
    func refined(_ ranges: [TimeRange], budget: Double?, joinOverlap: Double = 0) -> [TimeRange] {
        var pieces = ranges.map { ($0.start.seconds, $0.end.seconds) }
        func total() -> Double { pieces.map { $0.1 - $0.0 }.reduce(0, +) - Double(max(pieces.count - 1, 0)) * joinOverlap }
        for index in pieces.indices {
            for side in [Side.end, .start] {
                // Joined to the piece before: no start to cut.
                if side == .start, index > 0, pieces[index - 1].1 >= pieces[index].0 { continue }
                let (start, end) = pieces[index]
                let room = budget.map { max($0 - total(), 0) } ?? .infinity
                let shortest = min(minimumPiece, end - start)
                let previousEnd = index > 0 ? pieces[index - 1].1 : bounds.lowerBound
                let nextStart = index + 1 < pieces.count ? pieces[index + 1].0 : bounds.upperBound
                func point(reaching outward: Double, inward: Double) -> CutPoint {
                    switch side {
                    case .end:
                        let low = max(end - inward, start + shortest), high = min(end + min(outward, room), nextStart)
                        return cut(end, side: .end, within: min(low, end)...max(high, end))
                    case .start:
                        let low = max(start - min(outward, room), previousEnd), high = min(start + inward, end - shortest)
                        return cut(start, side: .start, within: min(low, start)...max(high, start))
                    }
                }
                var chosen = point(reaching: reachOutward, inward: reachInward)
                // Only the quietest moment within reach: a boundary or a pause within twice the
                // reach outward (room allowing) is better, else one further inward, giving up at
                // most a third of the piece (a budget's piece cut around its peak often has no
                // room outward). The film's piece that began mid-shot 3.3 s after the previous
                // piece's last cut now begins on that cut. Only a low between sounds mid-shot:
                // the same inward, outward no farther (a low is a fair cut; a shot is a better one).
                // A low within a few frames of a shot boundary is as good as the boundary (the
                // budget left no room for the last frames).
                // Without sound, only outward: a silent piece whose edge falls in movement is
                // lengthened until the movement ends (someone reaches the table) rather than cut
                // back by seconds to a moment that is merely stiller (vtest's walkers never stop).
                let nextToCut = chosen.kind == .low && boundaries.contains { abs($0 - chosen.time) <= Self.frames }
                if chosen.kind != .clean && !nextToCut {
                    let heard = sound?.hasSound == true
                    let farther = point(reaching: chosen.kind == .quietest ? 2 * reachOutward : reachOutward,
                                        inward: heard ? max(reachInward, (end - start) / 3) : reachInward)
                    if farther.kind == .clean { chosen = farther }
                }
                // Still no clean end, and the next piece starts within twice the reach: the gap is
                // kept too, budget allowing, rather than a sentence cut between two of its words
                // (Megamind's 30 s reel left out 2.2-4.1 s of the woman's speech).
                if side == .end, chosen.kind != .clean, !nextToCut, index + 1 < pieces.count,
                   nextStart - end <= 2 * reachOutward, nextStart - end <= room {
                    chosen = CutPoint(time: nextStart, kind: .clean)
                }
                if side == .end { pieces[index].1 = chosen.time } else { pieces[index].0 = chosen.time }
            }
        }
        // Pieces whose gap was kept are one piece.
        return HighlightEditor.merged(pieces.map { TimeRange(start: Self.time($0.0), end: Self.time($0.1)) }, gap: 1e-6)
    }

    /// A cut point and what kind it is.
    struct CutPoint {
        enum Kind {
            /// A shot boundary, a pause, the video's edge (or, without sound, the picture's cut).
            case clean
            /// A gap between sounds: lower than around it, not a pause.
            case low
            /// The quietest moment near the edge: nothing better was within reach.
            case quietest
        }
        var time: Double
        var kind: Kind
    }

    /// Where an edge at `time` should be cut, inside `allowed`.
    func cut(_ time: Double, side: Side, within allowed: ClosedRange<Double>) -> CutPoint {
        // The video's own start and end need no cut point.
        if (side == .start && time <= bounds.lowerBound + 0.01) || (side == .end && time >= bounds.upperBound - 0.01) {
            return CutPoint(time: time, kind: .clean)
        }
        // Moving outward lengthens the piece (lets a sentence finish): it costs less.
        func cost(_ candidate: Double) -> Double {
            let outward = side == .end ? candidate > time : candidate < time
            return abs(candidate - time) * (outward ? 0.6 : 1)
        }
        guard let sound, sound.hasSound else { return silentCut(time, side: side, within: allowed, cost: cost) }
        let cuts = boundaries(for: side, within: allowed)
        var candidates: [(time: Double, cost: Double)] = []
        // Nothing comes before the video's start or after its end: always a clean edge.
        let edge = side == .start ? bounds.lowerBound : bounds.upperBound
        if allowed.contains(edge) { candidates.append((edge, cost(edge) - 0.3)) }
        // A shot boundary where the sound is quiet or dips (picture and sound change together).
        for boundary in cuts where isLow(boundary, in: sound) {
            candidates.append((boundary, cost(boundary) - 0.3))
        }
        // A pause in the speech: the end of a sentence, a breath.
        for pause in sound.pauses(overlapping: allowed) {
            let length = pause.upperBound - pause.lowerBound
            let lead = min(pauseLead, length / 2)
            let point = side == .end ? pause.lowerBound + lead : pause.upperBound - lead
            // A boundary inside the pause is the cut (picture and sound change there together).
            guard allowed.contains(point), !boundaries.contains(where: { pause.contains($0) && allowed.contains($0) }) else {
                continue
            }
            candidates.append((point, cost(point) - (length >= 0.3 ? 0.2 : 0)))
        }
        if let best = candidates.min(by: { $0.cost < $1.cost }) { return CutPoint(time: best.time, kind: .clean) }
        // No pause within reach (a film's score, sound effects): a shot boundary, as without
        // sound (the join's short crossfade carries the sound over), the closer the better;
        // else the gap between words or sounds cheapest to reach; else the quietest moment near.
        if let boundary = cuts.min(by: { cost($0) < cost($1) }) {
            return CutPoint(time: boundary, kind: .clean)
        }
        if let gap = sound.lows(in: allowed).min(by: { cost($0) < cost($1) }) { return CutPoint(time: gap, kind: .low) }
        let near = max(allowed.lowerBound, time - 0.5)...min(allowed.upperBound, time + 0.5)
        guard near.lowerBound <= near.upperBound else { return CutPoint(time: time, kind: .quietest) }
        return CutPoint(time: sound.quietest(in: near) ?? time, kind: .quietest)
    }

    /// A few frames: an edge this close to a shot boundary reads as a cut on it.
    static let frames = 0.2

    /// A shot shorter than this is a fragment (a fade's dark tail, a flash): no piece opens or
    /// closes on it.
    static let fragment = 0.75

    /// The shot boundaries inside `allowed` a piece may start (or end) on: a start on a boundary
    /// followed by fragments moves past them, an end before them (when that is still allowed),
    /// so the trailer's piece that began on a shot's 0.6 s fade to black begins on the title
    /// after it.
    private func boundaries(for side: Side, within allowed: ClosedRange<Double>) -> [Double] {
        var chosen: [Double] = []
        for index in boundaries.indices where allowed.contains(boundaries[index]) {
            var settled = index
            switch side {
            case .start:
                while settled + 1 < boundaries.count, boundaries[settled + 1] - boundaries[settled] < Self.fragment { settled += 1 }
            case .end:
                while settled > 0, boundaries[settled] - boundaries[settled - 1] < Self.fragment { settled -= 1 }
            }
            let time = allowed.contains(boundaries[settled]) ? boundaries[settled] : boundaries[index]
            if chosen.last != time { chosen.append(time) }
        }
        return chosen
    }

    /// Without sound: a shot boundary near the edge; else, when the edge falls in movement (a
    /// person mid-stride), the nearest moment within reach where the picture holds still, so
    /// the movement is seen whole or not at all; else the edge as it is, as the quietest there
    /// is (so a wider reach is tried; a fixed camera's joins dissolve). A video with no still
    /// stretch at all (a moving camera) has no movement to see whole: its edges stay.
    private func silentCut(_ time: Double, side: Side, within allowed: ClosedRange<Double>, cost: (Double) -> Double) -> CutPoint {
        let nearest = boundaries(for: side, within: allowed).min { abs($0 - time) < abs($1 - time) }
        if let nearest, abs(nearest - time) <= snapDistance { return CutPoint(time: nearest, kind: .clean) }
        guard !stillSpans.isEmpty, !stillSpans.contains(where: { $0.contains(time) }) else { return CutPoint(time: time, kind: .clean) }
        let points = stillSpans.compactMap { span -> Double? in
            let lead = min(pauseLead, (span.upperBound - span.lowerBound) / 2)
            let point = side == .end ? span.lowerBound + lead : span.upperBound - lead
            return allowed.contains(point) ? point : nil
        }
        guard let best = points.min(by: { cost($0) < cost($1) }) else { return CutPoint(time: time, kind: .quietest) }
        return CutPoint(time: best, kind: .clean)
    }

    /// Whether the sound around `time` is quiet, or clearly lower than around it for long
    /// enough to end or begin on: at least `sentenceGap`. The gap between two words of one
    /// sentence is shorter (Megamind.avi's cut at 6.42 s falls in a 120 ms dip 12 dB down,
    /// with the sentence running on to 7.8 s).
    private func isLow(_ time: Double, in sound: SoundEnvelope) -> Bool {
        sound.isQuiet(at: time) || (sound.dip(at: time) >= 8 && sound.gapLength(at: time) >= Self.sentenceGap)
    }

    /// The shortest dip in the sound a shot boundary is cut on as on a pause.
    static let sentenceGap = 0.2


    private static func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, timescale: 1_000_000) }
}
