import ReelSupport

extension VideoAnalysis {
    /// The shots as pieces worth a file each (`reel split --shots`). A fade through black
    /// leaves fragments between its gradual boundaries: each is cut where it is darkest, its
    /// darkening part staying with the shot before and its brightening part with the shot
    /// after, as an editor cuts in the black. Any other shot shorter than `minimum` seconds that
    /// touches a gradual boundary, or is the video's first or last (a black first frame), joins
    /// a neighbour: the first joins the next, others the one before. Short shots between two
    /// cuts (a quick montage) stay pieces of their own.
    public func shotPieces(minimum: Double = 0.5) -> [TimeRange] {
        guard let first = shots.first, let last = shots.last else { return [] }
        var cuts = shots.dropFirst().map(\.start)
        func remove(_ time: MediaTime) { cuts.removeAll { abs(($0 - time).seconds) < 1e-6 } }
        for (index, shot) in shots.enumerated() {
            let length = (shot.end - shot.start).seconds
            let gradual = boundaries.contains { boundary in
                boundary.kind == .gradual
                    && (abs((boundary.time - shot.start).seconds) < 1e-3 || abs((boundary.time - shot.end).seconds) < 1e-3)
            }
            if gradual, length < Self.fadeFragmentLimit, let darkest = darkestTime(from: shot.start, to: shot.end) {
                remove(shot.start)
                remove(shot.end)
                if darkest > shot.start, darkest < shot.end, index > 0, index < shots.count - 1 { cuts.append(darkest) }
                // At an edge: the whole fragment goes to the other side (a fade in opens the
                // next shot; a fade out closes the last one).
                else if darkest <= shot.start, index > 0 { cuts.append(shot.start) }
                else if darkest >= shot.end, index < shots.count - 1 { cuts.append(shot.end) }
            } else if length < minimum, gradual || index == 0 || index == shots.count - 1 {
                remove(index == 0 ? shot.end : shot.start)
            }
        }
        let ordered = cuts.sorted()
        return zip([first.start] + ordered, ordered + [last.end]).map { TimeRange(start: $0, end: $1) }
    }

    /// How long a fade's fragment may be.
    private static let fadeFragmentLimit = 1.5
    /// Mean luma (0-255) at or below which a sampled picture is black.
    private static let darkLuma = 40.0

    /// Where the samples from `start` to `end` (a sample's interval either side) are darkest, when
    /// that is black: the middle of the samples within 2 of the darkest, at `start` or `end`
    /// when the darkest sample lies outside them. `nil` with fewer than two samples.
    private func darkestTime(from start: MediaTime, to end: MediaTime) -> MediaTime? {
        let blocks = SampledFrameCollector.lumaBlocks
        let inside = samples.filter {
            $0.time.seconds >= start.seconds - 0.05 && $0.time.seconds <= end.seconds + 0.05 && $0.signature.count >= blocks
        }
        guard inside.count >= 2 else { return nil }
        let lumas = inside.map { Double($0.signature.prefix(blocks).reduce(0) { $0 + Int($1) }) / Double(blocks) }
        guard let darkest = lumas.min(), darkest <= Self.darkLuma else { return nil }
        let black = inside.indices.filter { lumas[$0] <= darkest + 2 }
        guard let from = black.first, let to = black.last else { return nil }
        let middle = (inside[from].time.seconds + inside[to].time.seconds) / 2
        if middle <= start.seconds + 0.05 { return start }
        if middle >= end.seconds - 0.05 { return end }
        return MediaTime(seconds: middle, timescale: start.timescale)
    }
}
