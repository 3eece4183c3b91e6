import ReelSupport

/// A strategy that decides which source frames to keep when lowering the frame rate.
///
/// Decisions are made from timestamps, one frame at a time in presentation order, so variable
/// frame rate sources work. Every source frame is offered; each kept frame is shown from the
/// time its decision names until the next kept frame, and the last one until the source (or
/// trim) ends, so the output lasts exactly as long as the source.
public protocol VideoFrameReducer: Sendable {
    /// Whether `FrameTiming.sceneChange` should be measured for this reducer (costs a little).
    var usesSceneChangeScores: Bool { get }
    /// A fresh selector for one compression at `targetFrameRate` frames per second.
    func makeSelector(targetFrameRate: Double) -> any FrameSelector
}

extension VideoFrameReducer {
    /// By default reducers decide from timestamps alone.
    public var usesSceneChangeScores: Bool { false }
}

/// The stateful per-compression half of a reducer: offered every frame in presentation order.
public protocol FrameSelector {
    /// Whether to keep this frame, and when to show it.
    mutating func select(_ frame: FrameTiming) -> FrameDecision
}

/// A reducer's verdict on one frame.
public enum FrameDecision: Sendable, Equatable {
    /// Leave the frame out; the previous kept frame stays on screen.
    case drop
    /// Keep the frame and show it from `time` (relative to the start of the kept range). Times
    /// must increase from one kept frame to the next; reducers use grid instants so a 60 fps
    /// source reduced to 24 fps comes out at an even 24 fps.
    case keep(at: MediaTime)
}

/// One decoded frame as a reducer sees it.
public struct FrameTiming: Sendable, Equatable {
    /// When the frame appears, relative to the start of the kept time range.
    public var start: MediaTime
    /// When the next frame appears (or the range ends): the frame is on screen during `[start, end)`.
    public var end: MediaTime
    /// How different the picture is from the previous frame, 0 (same) to 1 (completely
    /// different); set only for reducers whose `usesSceneChangeScores` is true.
    public var sceneChange: Double?

    /// Creates a frame timing.
    public init(start: MediaTime, end: MediaTime, sceneChange: Double? = nil) {
        self.start = start
        self.end = end
        self.sceneChange = sceneChange
    }
}

/// The instants `k / frameRate` seconds (k = 0, 1, 2...) after an origin that a reducer keeps
/// frames at; exact rationals computed from `k`, so long videos do not drift.
struct FrameGrid {
    private let rateNumerator: Int64
    private let rateDenominator: Int64
    private var origin: MediaTime = .zero
    private var index: Int64 = 0

    init(frameRate: Double) {
        // Frame rates as thousandths are exact for 24, 25, 30, 60 and within 0.1 ppm for 29.97.
        rateNumerator = max(Int64((frameRate * 1000).rounded()), 1)
        rateDenominator = 1000
    }

    /// The next instant not yet given to a frame.
    var next: MediaTime { instant(index) }

    /// Gives every pending instant before `end` to the frame ending there and returns the first
    /// of them, or `nil` when none falls before `end`. Instants before the frame's start (only
    /// possible before the first frame) count too, so the first frame is always kept.
    mutating func consumeInstants(before end: MediaTime) -> MediaTime? {
        let first = next
        guard first < end else { return nil }
        repeat { index += 1 } while next < end
        return first
    }

    /// Re-anchors the grid so its next instant is `time`.
    mutating func restart(at time: MediaTime) {
        origin = time
        index = 0
    }

    private func instant(_ k: Int64) -> MediaTime {
        // k / (num / den) seconds = k * den / num; num fits Int32 for rates below 2 million.
        origin + MediaTime(value: k * rateDenominator, timescale: Int32(clamping: rateNumerator))
    }
}
