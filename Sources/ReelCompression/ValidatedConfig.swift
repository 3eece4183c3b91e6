import Foundation
import ReelSupport

/// A `CompressionConfig` that passed `validate()`. Plans take it without checking again, so a
/// batch checks its settings once however many files it compresses. Only where the output goes
/// may change, since no check depends on it.
public struct ValidatedConfig: Sendable, Equatable {
    /// The checked settings.
    public let config: CompressionConfig

    fileprivate init(checked config: CompressionConfig) {
        self.config = config
    }

    /// The same settings, writing to `url`.
    public func writing(to url: URL) -> ValidatedConfig {
        var config = config
        config.outputURL = url
        config.outputDirectory = nil
        return ValidatedConfig(checked: config)
    }

    /// The same settings keeping only `ranges` of the source, in this order (any trim they had
    /// is replaced: a piece of a split, say). No check depends on which ranges are kept; the
    /// plan checks them against the source.
    public func keeping(_ ranges: [TimeRange]) -> ValidatedConfig {
        var config = config
        config.trim = .ranges(ranges)
        config.trimStartTime = nil
        config.trimEndTime = nil
        return ValidatedConfig(checked: config)
    }

    /// The share (0...1) of a whole compression's progress that planning takes: a planned
    /// trim's own share (a highlight reel's analysis), then the reframing's framing pass when
    /// its camera path is still to be worked out.
    public var planningProgressShare: Double {
        let trim = trimPlanningShare
        guard let reframing = config.reframing, reframing.path == nil else { return trim }
        return trim + (1 - trim) * Self.framingShare
    }

    /// A planned trim's share of the whole progress.
    var trimPlanningShare: Double {
        guard case .planned(let planner) = config.trim else { return 0 }
        return min(max(planner.progressShare, 0), 1)
    }

    /// The framing pass's share of what follows the trim planning: it decodes the kept ranges
    /// once, about a third of the time the encode of a small reframed picture takes.
    static let framingShare = 0.25
}

extension CompressionConfig {
    /// This configuration checked (`validate()`), as plans take it.
    public func validated() throws(ReelError) -> ValidatedConfig {
        try validate()
        return ValidatedConfig(checked: self)
    }
}
