import Foundation
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
    /// The ranges of `source` to keep and what they were worked out from (a highlight reel's
    /// analysis), for plans and results that show it. By default, `ranges(of:progressHandler:)`
    /// with no basis.
    func plan(
        of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void
    ) async throws(ReelError) -> PlannedTrim
    /// Whether `other` plans the same ranges (so `CompressionConfig` stays `Equatable`).
    func isEqual(to other: any TrimPlanner) -> Bool
}

extension TrimPlanner {
    /// The planner's ranges, with no basis.
    public func plan(
        of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void
    ) async throws(ReelError) -> PlannedTrim {
        PlannedTrim(ranges: try await ranges(of: source, progressHandler: progressHandler))
    }
}

/// What a `TrimPlanner` worked its ranges out from, carried by the plan and the result so that
/// callers can show it without working it out again (ReelKit's `VideoAnalysis` is one: a
/// highlight reel's plan and result have its `analysis`).
public protocol TrimBasis: Sendable {
    /// Seconds of the source the basis covers when its data ends before the header says (a
    /// file cut short, found by an analysis that decoded all of it); `nil` otherwise.
    var coveredDuration: Double? { get }
}

extension TrimBasis {
    /// None known.
    public var coveredDuration: Double? { nil }
}

/// A trim planner's answer: the ranges to keep, in output order, and what they came from.
public struct PlannedTrim: Sendable {
    /// The source ranges to keep, in output order (times from the container's start).
    public var ranges: [TimeRange]
    /// What the ranges were worked out from, when the planner offers it.
    public var basis: (any TrimBasis)?
    /// Faces a reframing camera should follow in preference to others (a reel of one person);
    /// empty for none.
    public var focus: [FramingFocus]
    /// Seconds of crossfade the joins want when the configuration asks for none (joins that
    /// would be jump cuts on a fixed camera dissolve instead); `nil` cuts.
    public var joinCrossfade: Double?
    /// The joins that cut all the same, each numbered by the range before it (0: the join
    /// between the first and second ranges); empty: every join dissolves.
    public var cutJoins: Set<Int>
    /// Seconds of fade from black and silence at the output's edges the planner asks for (a
    /// highlight reel's), used where `CompressionConfig.edgeFadeDuration` is `nil`.
    public var edgeFadeDuration: Double?
    /// The loudness the planner asks for (a highlight reel's), used where
    /// `CompressionConfig.loudness` is `nil`.
    public var loudness: LoudnessTarget?

    /// Creates a planned trim.
    public init(ranges: [TimeRange], basis: (any TrimBasis)? = nil, focus: [FramingFocus] = [],
                joinCrossfade: Double? = nil, cutJoins: Set<Int> = [], edgeFadeDuration: Double? = nil,
                loudness: LoudnessTarget? = nil) {
        self.ranges = ranges
        self.cutJoins = cutJoins
        self.basis = basis
        self.focus = focus
        self.joinCrossfade = joinCrossfade
        self.edgeFadeDuration = edgeFadeDuration
        self.loudness = loudness
    }
}

extension TrimPlanner where Self: Equatable {
    /// Equal when `other` is the same type with equal values.
    public func isEqual(to other: any TrimPlanner) -> Bool { (other as? Self) == self }
}
