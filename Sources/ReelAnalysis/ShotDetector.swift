import ReelSupport

/// A place where one shot ends and the next begins.
public struct ShotBoundary: Sendable, Equatable, Codable {
    /// How the shots are joined.
    public enum Kind: String, Sendable, Codable {
        /// A cut: the next shot's first frame follows the last frame of the previous one.
        case cut
        /// A gradual change: a dissolve, or a fade through black.
        case gradual
    }

    /// The first instant of the new shot (for cuts, the exact time of its first frame).
    public var time: MediaTime
    /// Cut or gradual.
    public var kind: Kind
    /// The span of a gradual transition (frames that belong to neither shot cleanly).
    public var transition: TimeRange?

    /// Creates a boundary (for mocks of an analysis; the analyzer makes its own).
    public init(time: MediaTime, kind: Kind, transition: TimeRange? = nil) {
        self.time = time
        self.kind = kind
        self.transition = transition
    }
}

/// Finds shot boundaries.
///
/// Cuts: like PySceneDetect's AdaptiveDetector, a decoded frame whose change from the previous
/// decoded frame is `adaptiveRatio` times the mean change of its neighbours (and at least
/// `minimumCutChange`) starts a new shot. Gradual transitions: frames `span` apart differ strongly while no single step does
/// (dissolves), or the picture goes to or comes out of black (fades); the boundary is the middle
/// of the change, or the black's edges.
struct ShotDetector {
    var adaptiveRatio = 3.0
    var minimumCutChange = 0.06
    var neighbourWindow = 2
    var gradualChange = 0.12

    /// Indices into `changes` (one per decoded frame) where a new shot starts. `gaps[i]` is how
    /// many frame durations lie between decoded frames `i - 1` and `i` (more than 1 where the
    /// decoder skipped frames): neighbours' changes are scaled to the candidate's gap, since
    /// motion grows with the time between frames while a cut does not.
    func cuts(_ changes: [Double], gaps: [Double]? = nil) -> [Int] {
        guard changes.count > 2 else { return [] }
        func gap(_ index: Int) -> Double { max(gaps?[index] ?? 1, 1) }
        var cuts: [Int] = []
        for index in 1..<changes.count {
            let change = changes[index]
            guard change >= minimumCutChange else { continue }
            var neighbours: [Double] = []
            for offset in -neighbourWindow...neighbourWindow where offset != 0 {
                let other = index + offset
                if other >= 1 && other < changes.count { neighbours.append(changes[other] / gap(other) * gap(index)) }
            }
            let average = neighbours.isEmpty ? 0 : neighbours.reduce(0, +) / Double(neighbours.count)
            if change >= adaptiveRatio * max(average, 0.005) { cuts.append(index) }
        }
        return cuts
    }

    /// Frames of a coarse pass (`gaps` as in `cuts`) that may start a new shot. A candidate is
    /// `confirmed` when it passes the adaptive test of `cuts` with no frame skipped before it.
    /// The others need a full-rate look: those that pass it across skipped frames, and those
    /// that stand out from one calm side only. Fast motion on the other side can change the
    /// picture as much as a cut once frames are skipped (differences saturate), so a one-sided
    /// candidate is compared only with neighbours at least as far apart as itself, unscaled.
    func candidates(_ changes: [Double], gaps: [Double]) -> [(index: Int, confirmed: Bool)] {
        guard changes.count > 2 else { return [] }
        let strict = Set(cuts(changes, gaps: gaps))
        func gap(_ index: Int) -> Double { max(gaps[index], 1) }
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        var found: [(index: Int, confirmed: Bool)] = []
        for index in 1..<changes.count where changes[index] >= minimumCutChange {
            if strict.contains(index) {
                found.append((index, gap(index) <= 1.5))
                continue
            }
            // Right after a cut, the new shot's own motion stands out from the old shot.
            if strict.contains(index - 1) { continue }
            func side(_ offsets: ClosedRange<Int>) -> Double? {
                mean(offsets.compactMap { offset in
                    let other = index + offset
                    guard other >= 1, other < changes.count, gap(other) >= gap(index) - 0.5 else { return nil }
                    return changes[other]
                })
            }
            let calmer = [side(-neighbourWindow...(-1)), side(1...neighbourWindow)].compactMap { $0 }.min()
            if let calmer, changes[index] >= adaptiveRatio * max(calmer, 0.005) { found.append((index, false)) }
        }
        return found
    }

    /// Gradual boundaries from blank runs and slow large changes; `cuts` are sample indices of
    /// hard cuts already found.
    func gradualBoundaries(_ frames: [FrameFeatures], signatures: [[UInt8]], cuts: Set<Int>, span: Int) -> [ShotBoundary] {
        var boundaries: [ShotBoundary] = []
        // Fades: the edges of blank runs, with the ramp into and out of them as the transition.
        var index = 0
        while index < frames.count {
            guard frames[index].isBlank else { index += 1; continue }
            let start = index
            while index < frames.count && frames[index].isBlank { index += 1 }
            let end = index
            if start > 0 && !cuts.contains(start) {
                let rampStart = rampBegin(frames, from: start, direction: -1)
                boundaries.append(ShotBoundary(
                    time: frames[start].time, kind: .gradual,
                    transition: TimeRange(start: frames[rampStart].time, end: frames[start].time)))
            }
            if end < frames.count && !cuts.contains(end) {
                let rampEnd = rampBegin(frames, from: end - 1, direction: 1)
                boundaries.append(ShotBoundary(
                    time: frames[end].time, kind: .gradual,
                    transition: TimeRange(start: frames[end].time, end: frames[min(rampEnd, frames.count - 1)].time)))
            }
        }
        // Dissolves: a large difference across `span` samples built from small steps.
        guard span >= 1, frames.count > 2 * span else { return boundaries }
        var longRange = [Double](repeating: 0, count: frames.count)
        for center in span..<(frames.count - span) {
            longRange[center] = PictureMeasurer.difference(signatures[center - span], signatures[center + span])
        }
        for center in span..<(frames.count - span) where longRange[center] >= gradualChange {
            let window = (center - span)...(center + span)
            guard longRange[center] >= longRange[center - 1], longRange[center] > longRange[center + 1],
                  !window.contains(where: { cuts.contains($0) }),
                  !window.contains(where: { frames[$0].isBlank }),
                  window.allSatisfy({ frames[$0].change < minimumCutChange * 1.5 }) else { continue }
            // A pan or zoom also differs across the span; a dissolve also differs from both ends.
            let before = signatures[center - span], after = signatures[center + span], middle = signatures[center]
            let mixed = PictureMeasurer.difference(before, middle) > gradualChange * 0.3
                && PictureMeasurer.difference(middle, after) > gradualChange * 0.3
            guard mixed, steadyOutside(frames, window: window) else { continue }
            boundaries.append(ShotBoundary(
                time: frames[center].time, kind: .gradual,
                transition: TimeRange(start: frames[center - span].time, end: frames[center + span].time)))
        }
        return boundaries
    }

    /// Walks from a blank run's edge into the picture while brightness keeps rising (a fade ramp).
    private func rampBegin(_ frames: [FrameFeatures], from index: Int, direction: Int) -> Int {
        var position = index
        while true {
            let next = position + direction
            guard next >= 0 && next < frames.count else { return position }
            guard frames[next].brightness > frames[position].brightness + 0.01, frames[next].change > 0.01 else {
                return position
            }
            position = next
        }
    }

    /// Whether the shots on both sides of a window are calmer than the window itself.
    private func steadyOutside(_ frames: [FrameFeatures], window: ClosedRange<Int>) -> Bool {
        let inside = window.map { frames[$0].change }.reduce(0, +) / Double(window.count)
        var outside: [Double] = []
        for offset in 1...3 {
            if window.lowerBound - offset >= 1 { outside.append(frames[window.lowerBound - offset].change) }
            if window.upperBound + offset < frames.count { outside.append(frames[window.upperBound + offset].change) }
        }
        guard !outside.isEmpty else { return true }
        return outside.reduce(0, +) / Double(outside.count) < inside
    }
}
