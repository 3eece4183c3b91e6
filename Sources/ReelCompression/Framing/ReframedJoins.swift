import Foundation
import ReelMedia
import ReelSupport

/// Dissolves that reframing would turn into a double exposure.
///
/// A fixed camera's joins dissolve so that people do not jump (`JoinLooks`). Reframed, the
/// window before such a join holds into the dissolve where the next shot's subject allows
/// (`CameraPathPlanner.path(continuing:)`); where the next subject stands elsewhere, the two
/// windows show different parts of the scene, and dissolving them shows the background twice,
/// side by side (the table doubled, the lamp post twice). The framing changes there, so the
/// join is a cut, as an editor cuts between two framings: at the dissolve's middle, so the
/// output lasts as long as it would have.
enum ReframedJoins {
    /// Windows further apart than this share of the window's width (or height) mid-dissolve
    /// show the background twice (nearer the dissolve's ends, where one picture is faint, they
    /// may stand further apart).
    static let largestShift = 0.1

    /// The joins of `dissolvingJoins` (numbered by the range before each) where `path`'s windows
    /// either side stand visibly apart during the `dissolve` (`largestShift`), and whose ranges
    /// stay long enough to dissolve at their other joins once cut at the middle. `ranges` are
    /// on the file's clock, `path` from `origin` (the container's start).
    static func apart(_ path: CameraPath, ranges: [ClosedSourceRange], dissolvingJoins: Set<Int>, dissolve: Double,
                      origin: Double) -> Set<Int> {
        guard dissolve > 0 else { return [] }
        let extent = path.movesHorizontally ? path.windowWidth : path.windowHeight
        func position(_ seconds: Double) -> Double? {
            path.window(at: seconds - origin).map { Double(path.movesHorizontally ? $0.minX : $0.minY) }
        }
        return dissolvingJoins.filter { join in
            guard join + 1 < ranges.count else { return false }
            let before = ranges[join], after = ranges[join + 1]
            // Cut at the middle, both ranges must still outlast two dissolves (`TranscodePlan.dissolves`).
            guard (before.end - before.start).seconds - dissolve / 2 > 2 * dissolve,
                  (after.end - after.start).seconds - dissolve / 2 > 2 * dissolve
            else { return false }
            // The second picture shows as much as the first mid-dissolve, and hardly at its ends:
            // a shift counts by how much the fainter picture shows.
            let steps = 10
            return (0...steps).contains { step in
                let share = Double(step) / Double(steps)
                let outgoing = position(min(before.end.seconds - dissolve * (1 - share), before.end.seconds - 1e-3))
                let incoming = position(after.start.seconds + dissolve * share)
                let seen = 2 * min(share, 1 - share)
                guard let outgoing, let incoming else { return (outgoing == nil) != (incoming == nil) && seen > 0.5 }
                return abs(outgoing - incoming) * seen > largestShift * extent
            }
        }
    }

    /// `ranges` (the API's timeline, in output order) cut at the middle of the dissolve of each
    /// of `joins`: the range before ends half a dissolve earlier, the one after starts half a
    /// dissolve later.
    static func cutAtMiddles(_ ranges: [TimeRange], joins: Set<Int>, dissolve: Double) -> [TimeRange] {
        let half = MediaTime(seconds: dissolve / 2, timescale: 1_000_000)
        var cut = ranges
        for join in joins where join + 1 < cut.count {
            cut[join] = TimeRange(start: cut[join].start, end: cut[join].end - half)
            cut[join + 1] = TimeRange(start: cut[join + 1].start + half, end: cut[join + 1].end)
        }
        return cut
    }
}
