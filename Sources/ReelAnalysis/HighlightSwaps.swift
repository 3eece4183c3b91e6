import Foundation
import ReelSupport

extension HighlightEditor {
    /// A moment the budget left out takes the place of weaker lead-ins and tails of the pieces
    /// chosen before it. Strongest first, each left-out piece whose peak is above the level of a
    /// chosen piece's material outside that piece's core frees room by cutting such pieces back
    /// to their cores, weakest material first, and goes in when that is room enough. The greedy
    /// fill takes whole runs, so without this a segment nudged a hundredth of a level over the
    /// highlight line (a lead-in at 6.01) could spend the last seconds that a peak at 7.7 needed.
    /// `longest` is the fill's own limit on one piece.
    static func swapInStronger(_ leftOut: [Piece], chosen: inout [TimeRange], pieces: inout [Piece], sources: inout [TimeRange],
                               budget: Double, longest: Double, editing: HighlightEditing, cuts: [MediaTime], looks: RepeatFinder) {
        for candidate in leftOut.sorted(by: { $0.strength > $1.strength }) {
            var wanted = snapped(candidate.core ?? candidate.range, to: cuts, within: editing.snapDistance)
            if wanted.duration.seconds > longest { wanted = around(candidate.peak, length: longest, within: wanted) }
            guard wanted.duration.seconds >= min(editing.minimumPiece, budget) - 1e-6,
                  !chosen.contains(where: { $0.start < wanted.end && wanted.start < $0.end }),
                  !chosen.contains(where: { looks.repeats($0, wanted) }) else { continue }
            // The chosen pieces that would give up material weaker than this peak, weakest first.
            let trims = pieces.indices.compactMap { index -> (index: Int, to: TimeRange, level: Float)? in
                guard let tail = pieces[index].tailLevel, tail < candidate.peakLevel,
                      let core = pieces[index].core else { return nil }
                let kept = TimeRange(start: max(chosen[index].start, core.start), end: min(chosen[index].end, core.end))
                guard kept.duration.seconds >= editing.minimumPiece - 1e-6, kept.duration < chosen[index].duration else { return nil }
                return (index, kept, tail)
            }.sorted { $0.level < $1.level }
            var next = chosen
            func room() -> Double { budget + Double(next.count) * editing.crossfade - total(next) }
            for trim in trims where room() < wanted.duration.seconds - 1e-6 {
                next[trim.index] = trim.to
            }
            guard room() >= wanted.duration.seconds - 1e-6 else { continue }
            chosen = next + [wanted]
            pieces.append(candidate)
            sources.append(candidate.range)
        }
    }
}
