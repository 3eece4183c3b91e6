import Foundation

/// A cut, found as the analyzer's shot detector finds one but as frames arrive: a change at
/// least `minimumChange` and `ratio` times the mean of the two changes before it. The framing
/// pass uses it to start each shot afresh, the analysis decode to search every shot for faces.
struct CutTracker {
    var minimumChange = 0.06
    var ratio = 3.0
    private var previousGrid: LumaGrid?
    private var recent: [Double] = []

    /// Whether the picture of `grid` starts a new shot.
    mutating func isCut(after grid: LumaGrid?) -> Bool {
        guard let grid else { return false }
        defer { previousGrid = grid }
        guard let previousGrid else { return false }
        return isCut(change: grid.difference(to: previousGrid))
    }

    /// Whether a picture whose change from the one before is `change` starts a new shot.
    mutating func isCut(change: Double) -> Bool {
        defer {
            recent.append(change)
            if recent.count > 2 { recent.removeFirst() }
        }
        guard recent.count == 2, change >= minimumChange else { return false }
        let mean = recent.reduce(0, +) / Double(recent.count)
        return change >= ratio * max(mean, 0.005)
    }
}
