import Foundation

/// A cut, found as the analyzer's shot detector finds one but as frames arrive: a change at
/// least `minimumChange` and `ratio` times the mean of the two changes before it. The framing
/// pass uses it to start each shot afresh, the analysis decode to search every shot for faces.
/// With `verdict(after:)` a cut in fast motion is also found one picture late: a change that
/// stands out less from the motion before it (`lateRatio`) but clearly from the picture after
/// it (`afterRatio`). bikes.mp4's cut at 3.04 s, from a shaking street shot, changes 2.8 times
/// the frames before it and 5.9 times the one after.
struct CutTracker {
    var minimumChange = 0.06
    var ratio = 3.0
    var lateRatio = 2.0
    var afterRatio = 4.0
    private var previousGrid: LumaGrid?
    private var recent: [Double] = []
    /// The last change, when the next one may show it was a cut.
    private var lateCandidate: Double?

    /// What a picture's change says about where shots start.
    enum Verdict: Equatable {
        /// No new shot.
        case none
        /// This picture starts a new shot.
        case cut
        /// The picture before this one started a new shot.
        case previousWasCut
    }

    /// Whether a picture whose change from the one before is `change` starts a new shot.
    mutating func isCut(change: Double) -> Bool {
        defer {
            recent.append(change)
            if recent.count > 2 { recent.removeFirst() }
        }
        guard recent.count == 2, change >= minimumChange else { return false }
        return change >= ratio * meanOfRecent
    }

    /// Where the picture of `grid` leaves the shots: a cut here, a cut one picture back, or none.
    mutating func verdict(after grid: LumaGrid?) -> Verdict {
        guard let grid else { return .none }
        defer { previousGrid = grid }
        guard let previousGrid else { return .none }
        return verdict(change: grid.difference(to: previousGrid))
    }

    /// `verdict(after:)` for a picture whose change from the one before is `change`.
    mutating func verdict(change: Double) -> Verdict {
        let previousWasCut = lateCandidate.map { $0 >= afterRatio * max(change, 0.005) } ?? false
        let mayBeLate = recent.count == 2 && change >= minimumChange && change >= lateRatio * meanOfRecent
        let cut = isCut(change: change)
        lateCandidate = !cut && mayBeLate ? change : nil
        return cut ? .cut : previousWasCut ? .previousWasCut : .none
    }

    private var meanOfRecent: Double { max(recent.reduce(0, +) / Double(max(recent.count, 1)), 0.005) }
}
