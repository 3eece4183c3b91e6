internal import CFFmpeg
import ReelSupport

/// What one burst of the content measure saw: the first picture at or after its time and the
/// picture after it.
package struct ContentBurst: Sendable, Equatable {
    /// Luma change between the two pictures; `nil` when the pictures ran out after the first.
    package var motion: Double?
    /// Mean detail of the pictures seen; `nil` when none was.
    package var detail: Double?
}

/// The content measure's bursts over a span of the source: their times, and those measured so
/// far. A decode that passes some of the times anyway (the framing pass reads every frame of the
/// kept ranges) measures them on the way, and `ContentSampler` decodes only the rest.
package struct ContentBursts: Sendable, Equatable {
    /// File seconds each burst starts at.
    package let times: [Double]
    /// Each burst's measurement, `nil` until it is taken.
    package var measured: [ContentBurst?]

    /// `count` bursts spread evenly between `start` and `end` seconds, each in the middle of its
    /// share of the span.
    package init(start: Double, end: Double, count: Int = 6) {
        let span = max(end - start, 0)
        times = (0..<count).map { start + span * (Double($0) + 0.5) / Double(count) }
        measured = Array(repeating: nil, count: count)
    }

    /// Numbers of the bursts not measured yet.
    package var missing: [Int] { measured.indices.filter { measured[$0] == nil } }

    /// Motion and detail over the measured bursts.
    package var profile: ContentProfile {
        let seen = measured.compactMap { $0 }
        let motions = seen.compactMap(\.motion), details = seen.compactMap(\.detail)
        func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        return ContentProfile(motion: mean(motions), detail: mean(details), samples: motions.count)
    }
}

/// Measures bursts on pictures handed over in time order: `begin` one, hand it pictures with
/// `take` until it has two, `close` it where the pictures run out.
final class ContentBurstRecorder {
    private(set) var bursts: ContentBursts
    private var open: (index: Int, first: LumaGrid?)?
    private let planar = PlanarPicture()

    init(_ bursts: ContentBursts) { self.bursts = bursts }

    /// Whether a picture at `seconds` (`nil`: untimed, taken as it comes) comes before the open
    /// burst's time.
    func isEarly(_ seconds: Double?) -> Bool {
        guard let open, let seconds else { return false }
        return seconds + 0.001 < bursts.times[open.index]
    }

    /// Starts burst `index` (closing an open one where it stands).
    func begin(_ index: Int) {
        close(keepingPartial: true)
        open = (index, nil)
    }

    /// Hands the open burst a picture at or after its time; returns whether it wants another.
    func take(_ frame: Frame) throws(MediaFailure) -> Bool {
        guard let current = open else { return false }
        // RGB and palette pictures (cinepak, PNG, MJPEG variants) are made planar first.
        var planarGrid = LumaGrid(frame: frame.pointer)
        if planarGrid == nil { planarGrid = LumaGrid(frame: try planar.converting(frame).pointer) }
        guard let grid = planarGrid else { return true }
        guard let first = current.first else {
            open = (current.index, grid)
            return true
        }
        bursts.measured[current.index] = ContentBurst(motion: grid.lumaDifference(to: first), detail: (grid.detail + first.detail) / 2)
        open = nil
        return false
    }

    /// Closes the open burst: what it saw is kept when `keepingPartial` (the source ends there),
    /// else the burst stays unmeasured for a decode that can read on.
    func close(keepingPartial: Bool) {
        if keepingPartial, let current = open {
            bursts.measured[current.index] = ContentBurst(motion: nil, detail: current.first?.detail)
        }
        open = nil
    }

    /// Whether a burst is open.
    var isOpen: Bool { open != nil }

    /// Whether the open burst has not had its first picture yet.
    var awaitsFirstPicture: Bool { open.map { $0.first == nil } ?? false }
}
