/// Keeps the frame on screen at each instant of an even grid at the target rate (the default).
/// The first frame is always kept.
public struct ReduceFrameEvenlySpaced: VideoFrameReducer {
    /// Creates the reducer.
    public init() {}

    /// A selector keeping the frame showing at each `1 / targetFrameRate` instant.
    public func makeSelector(targetFrameRate: Double) -> any FrameSelector {
        Selector(grid: FrameGrid(frameRate: targetFrameRate))
    }

    struct Selector: FrameSelector {
        var grid: FrameGrid

        mutating func select(_ frame: FrameTiming) -> FrameDecision {
            grid.consumeInstants(before: frame.end).map { .keep(at: $0) } ?? .drop
        }
    }
}
