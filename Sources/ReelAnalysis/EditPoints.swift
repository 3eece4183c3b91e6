import Foundation
import ReelSupport

/// Moves the edges of a reel's pieces to where an editor would cut: a shot boundary where
/// nothing is said, else a pause in the speech (or a low in the sound) inside the shot; never
/// the middle of a word. Ends may move later (the sentence finishes) more readily than earlier,
/// starts earlier more readily than later, each within reach, without overlapping the other
/// pieces or leaving a budget.
struct EditPoints {
    /// Shot boundaries, seconds, in order.
    var boundaries: [Double]
    /// The sound's level; `nil` (or no sound above the pause level) cuts on the picture alone.
    var sound: SoundEnvelope?
    /// The video's extent, seconds.
    var bounds: ClosedRange<Double>
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
                let (start, end) = pieces[index]
                let room = budget.map { max($0 - total(), 0) } ?? .infinity
                let shortest = min(minimumPiece, end - start)
                let previousEnd = index > 0 ? pieces[index - 1].1 : bounds.lowerBound
                let nextStart = index + 1 < pieces.count ? pieces[index + 1].0 : bounds.upperBound
                switch side {
                case .end:
                    let low = max(end - reachInward, start + shortest), high = min(end + min(reachOutward, room), nextStart)
                    pieces[index].1 = cut(end, side: .end, within: min(low, end)...max(high, end))
                case .start:
                    let low = max(start - min(reachOutward, room), previousEnd), high = min(start + reachInward, end - shortest)
                    pieces[index].0 = cut(start, side: .start, within: min(low, start)...max(high, start))
                }
            }
        }
        return pieces.map { TimeRange(start: Self.time($0.0), end: Self.time($0.1)) }
    }

    /// Where an edge at `time` should be cut, inside `allowed`.
    func cut(_ time: Double, side: Side, within allowed: ClosedRange<Double>) -> Double {
        // The video's own start and end need no cut point.
        if (side == .start && time <= bounds.lowerBound + 0.01) || (side == .end && time >= bounds.upperBound - 0.01) {
            return time
        }
        guard let sound, sound.hasSound else {
            let nearest = boundaries.filter { allowed.contains($0) }.min { abs($0 - time) < abs($1 - time) }
            return nearest.flatMap { abs($0 - time) <= snapDistance ? $0 : nil } ?? time
        }
        // Moving outward lengthens the piece (lets a sentence finish): it costs less.
        func cost(_ candidate: Double) -> Double {
            let outward = side == .end ? candidate > time : candidate < time
            return abs(candidate - time) * (outward ? 0.6 : 1)
        }
        var candidates: [(time: Double, cost: Double)] = []
        // Nothing comes before the video's start or after its end: always a clean edge.
        let edge = side == .start ? bounds.lowerBound : bounds.upperBound
        if allowed.contains(edge) { candidates.append((edge, cost(edge) - 0.3)) }
        // A shot boundary where the sound is quiet or dips (picture and sound change together).
        for boundary in boundaries where allowed.contains(boundary) && isLow(boundary, in: sound) {
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
        if let best = candidates.min(by: { $0.cost < $1.cost }) { return best.time }
        // No pause within reach (a film's score, sound effects): a shot boundary, as without
        // sound (the join's short crossfade carries the sound over), the closer the better;
        // else the gap between words or sounds cheapest to reach; else the quietest moment near.
        if let boundary = boundaries.filter({ allowed.contains($0) }).min(by: { cost($0) < cost($1) }) {
            return boundary
        }
        if let gap = sound.lows(in: allowed).min(by: { cost($0) < cost($1) }) { return gap }
        let near = max(allowed.lowerBound, time - 0.5)...min(allowed.upperBound, time + 0.5)
        guard near.lowerBound <= near.upperBound else { return time }
        return sound.quietest(in: near) ?? time
    }

    /// Whether the sound around `time` is quiet or clearly lower than around it.
    private func isLow(_ time: Double, in sound: SoundEnvelope) -> Bool {
        sound.isQuiet(at: time) || sound.dip(at: time) >= 8
    }


    private static func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, timescale: 1_000_000) }
}
