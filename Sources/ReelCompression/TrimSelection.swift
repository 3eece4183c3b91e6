import Foundation
import ReelMedia
import ReelMedia
import ReelSupport

/// Which parts of a source a compression keeps.
public enum TrimSelection: Sendable, Equatable {
    /// The whole source (or the one range of `trimStartTime`/`trimEndTime`).
    case whole
    /// These source ranges, in the order given, joined end to end. They must lie inside the
    /// source, be non-empty and not overlap.
    case ranges([TimeRange])
    /// Ranges a planner works out when the compression starts, such as a highlight reel
    /// (`TrimSelection.highlights(_:)`), which needs the video analyzed first.
    case planned(any TrimPlanner)

    public static func == (lhs: TrimSelection, rhs: TrimSelection) -> Bool {
        switch (lhs, rhs) {
        case (.whole, .whole): return true
        case (.ranges(let left), .ranges(let right)): return left == right
        case (.planned(let left), .planned(let right)): return left.isEqual(to: right)
        default: return false
        }
    }
}

/// Works out which source ranges a compression keeps, when that takes work of its own (an
/// analysis, for example). The compressor calls it first, then encodes the ranges it returns.
public protocol TrimPlanner: Sendable {
    /// The share (0...1) of the compression's progress that planning takes.
    var progressShare: Double { get }
    /// The longest the kept ranges may last in total, in seconds, when known before planning.
    var maximumDuration: Double? { get }
    /// The ranges of `source` (as the compressor probed it) to keep, in output order.
    /// Cancelling the task stops it with `.cancelled`.
    func ranges(
        of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void
    ) async throws(ReelError) -> [TimeRange]
    /// Whether `other` plans the same ranges (so `CompressionConfig` stays `Equatable`).
    func isEqual(to other: any TrimPlanner) -> Bool
}

extension TrimPlanner where Self: Equatable {
    /// Equal when `other` is the same type with equal values.
    public func isEqual(to other: any TrimPlanner) -> Bool { (other as? Self) == self }
}
