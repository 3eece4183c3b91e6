/// A strategy that decides which source frames to keep when lowering the frame rate.
///
/// Decisions are made from timestamps, one frame at a time in presentation order, so variable
/// frame rate sources work. Every source frame is offered; a dropped frame's screen time goes to
/// the kept frame before it, so the output lasts as long as the source.
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
    /// Whether to keep this frame.
    mutating func shouldKeep(_ frame: FrameTiming) -> Bool
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

/// The instants `k / frameRate` seconds (k = 0, 1, 2...) a reducer keeps frames at; computed
/// from `k` each time so long videos do not drift.
struct FrameGrid {
    private let frameRate: Double
    private var index: Int64 = 0
    private static let timescale: Int32 = 1_000_000

    init(frameRate: Double) {
        self.frameRate = max(frameRate, 0.001)
    }

    /// The next instant not yet given to a frame.
    var next: MediaTime { instant(index) }

    /// The grid spacing.
    var interval: MediaTime { instant(1) }

    /// Gives every pending instant before `end` to the frame ending there; `true` if there was one.
    /// Instants that fell in a gap before the frame (the very first frame, VFR pauses) count too,
    /// so the first frame is always kept.
    mutating func consumeInstants(before end: MediaTime) -> Bool {
        guard next < end else { return false }
        repeat { index += 1 } while next < end
        return true
    }

    /// Re-anchors the grid so its next instant is `time`.
    mutating func restart(at time: MediaTime) {
        origin = time
        index = 0
    }

    private var origin: MediaTime = .zero

    private func instant(_ k: Int64) -> MediaTime {
        origin + MediaTime(value: Int64((Double(k) * Double(Self.timescale) / frameRate).rounded()),
                           timescale: Self.timescale)
    }
}
