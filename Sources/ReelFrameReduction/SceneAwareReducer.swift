/// Keeps frames evenly spaced, but always keeps the first frame after a scene cut and restarts
/// the grid there, so every shot starts on its own first frame instead of a frame late.
public struct SceneAwareReducer: VideoFrameReducer {
    /// The scene-change score (0...1) above which a frame counts as the first of a new shot.
    public var cutThreshold: Double

    /// Creates the reducer; `cutThreshold` is the mean luma difference (0...1) that marks a cut.
    public init(cutThreshold: Double = 0.12) {
        self.cutThreshold = cutThreshold
    }

    /// This reducer needs per-frame scene-change scores.
    public var usesSceneChangeScores: Bool { true }

    /// A selector that keeps cut frames and evenly spaced frames otherwise.
    public func makeSelector(targetFrameRate: Double) -> any FrameSelector {
        Selector(grid: FrameGrid(frameRate: targetFrameRate), threshold: cutThreshold)
    }

    struct Selector: FrameSelector {
        var grid: FrameGrid
        let threshold: Double
        var isFirstFrame = true

        mutating func select(_ frame: FrameTiming) -> FrameDecision {
            if let score = frame.sceneChange, score >= threshold, !isFirstFrame {
                // The new shot starts on its own first frame, exactly when it appears.
                grid.restart(at: frame.start)
                _ = grid.consumeInstants(before: frame.end)
                return .keep(at: frame.start)
            }
            isFirstFrame = false
            return grid.consumeInstants(before: frame.end).map { .keep(at: $0) } ?? .drop
        }
    }
}
