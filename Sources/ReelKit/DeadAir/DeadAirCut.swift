import Foundation
import ReelAnalysis
import ReelCompression
import ReelMedia
import ReelSupport

extension TrimSelection {
    /// The source with its dead air cut out: the pauses in its sound (with
    /// `requiresStillPicture`, only those over a still picture) are found by decoding the sound
    /// once, and the parts kept are encoded joined, in one pass (`DeadAirOptions`).
    public static func cuttingDeadAir(_ options: DeadAirOptions = DeadAirOptions()) -> TrimSelection {
        .planned(DeadAirCut(options: options))
    }
}

/// The `TrimPlanner` behind `TrimSelection.cuttingDeadAir`: `DeadAirDetector`, then the parts it
/// keeps, with its report as the basis (`CompressionPlan.deadAir`, `CompressionResult.deadAir`).
public struct DeadAirCut: TrimPlanner, Equatable {
    /// How dead air is found and cut.
    public var options: DeadAirOptions

    /// Creates the planner.
    public init(options: DeadAirOptions = DeadAirOptions()) {
        self.options = options
    }

    /// Decoding the sound alone is quick; the picture too takes longer.
    public var progressShare: Double { options.requiresStillPicture ? 0.25 : 0.05 }

    /// No budget: how much is kept depends on the sound.
    public var maximumDuration: Double? { nil }

    /// The parts of `source` to keep.
    public func ranges(
        of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void
    ) async throws(ReelError) -> [TimeRange] {
        try await plan(of: source, progressHandler: progressHandler).ranges
    }

    /// The parts of `source` to keep, with the report of what was cut as the basis. Throws
    /// `ReelError.nothingToKeep` when nothing in the searched parts is loud enough to keep.
    public func plan(
        of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void
    ) async throws(ReelError) -> PlannedTrim {
        let report = try await DeadAirDetector.report(of: source, options: options, progressHandler: progressHandler)
        guard !report.kept.isEmpty else {
            let what = options.requiresStillPicture ? "neither sound above \(options.silenceLevel) nor a moving picture"
                : "no sound above \(options.silenceLevel)"
            throw .nothingToKeep(source.url, reason: "\(what)"
                + (options.within.isEmpty ? "" : " in the given part") + "; give a lower silence level")
        }
        return PlannedTrim(ranges: report.kept, basis: report)
    }
}

extension DeadAirReport: TrimBasis {}

extension CompressionPlan {
    /// What a dead-air cut found (`TrimSelection.cuttingDeadAir`): the pauses cut and the parts
    /// kept; `nil` for other trims.
    public var deadAir: DeadAirReport? { trimBasis as? DeadAirReport }
}

extension CompressionResult {
    /// What a dead-air cut found; `nil` for other trims and for results read back from JSON
    /// (whose `analytics.keptRanges` still list the parts kept).
    public var deadAir: DeadAirReport? { trimBasis as? DeadAirReport }
}
