import ReelSupport

extension VideoAnalysis {
    /// The shots as pieces worth a file each (`reel split --shots`). A shot shorter than
    /// `minimum` seconds that is part of a transition (a gradual boundary at either edge: the
    /// black between a fade out and a fade in, the start of a fade from black) or the first or
    /// last shot (a black first frame) joins a neighbour: the first joins the next, others the
    /// one before. Short shots between two cuts (a quick montage) stay pieces of their own.
    public func shotPieces(minimum: Double = 0.5) -> [TimeRange] {
        let gradual = boundaries.filter { $0.kind == .gradual }.map(\.time.seconds)
        func touchesTransition(_ shot: TimeRange) -> Bool {
            gradual.contains { abs($0 - shot.start.seconds) < 1e-3 || abs($0 - shot.end.seconds) < 1e-3 }
        }
        var pieces: [TimeRange] = []
        var leadIn: MediaTime?
        for (index, shot) in shots.enumerated() {
            let fragment = (shot.end - shot.start).seconds < minimum
                && (index == 0 || index == shots.count - 1 || touchesTransition(shot))
            if fragment, let last = pieces.last {
                pieces[pieces.count - 1] = TimeRange(start: last.start, end: shot.end)
            } else if fragment {
                leadIn = leadIn ?? shot.start
            } else {
                pieces.append(TimeRange(start: leadIn ?? shot.start, end: shot.end))
                leadIn = nil
            }
        }
        // Nothing but fragments (a video shorter than `minimum`): one piece.
        if let leadIn, let end = shots.last?.end { pieces.append(TimeRange(start: leadIn, end: end)) }
        return pieces
    }
}
