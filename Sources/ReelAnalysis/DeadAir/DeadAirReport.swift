import Foundation
import ReelSupport

/// What a dead-air cut found in a source: the pauses cut out and the parts kept.
public struct DeadAirReport: Sendable, Equatable, Codable {
    /// The options it was found with.
    public var options: DeadAirOptions
    /// The parts of the source looked in, in output order (the whole source, or
    /// `DeadAirOptions.within` clamped to it); times from the container's start.
    public var searched: [TimeRange]
    /// The parts kept, in output order: what the compression encodes, joined.
    public var kept: [TimeRange]
    /// The stretches cut out, in output order of the parts they lie in.
    public var cuts: [TimeRange]
    /// The peak level below which the sound counted as silence, in dB below full scale (the
    /// `silenceLevel` worked out against this sound's loudest sample); `nil` for a source
    /// without sound.
    public var silenceLevelDecibels: Double?

    /// Creates a report.
    public init(options: DeadAirOptions, searched: [TimeRange], kept: [TimeRange], cuts: [TimeRange],
                silenceLevelDecibels: Double?) {
        self.options = options
        self.searched = searched
        self.kept = kept
        self.cuts = cuts
        self.silenceLevelDecibels = silenceLevelDecibels
    }

    /// Seconds looked in.
    public var searchedDuration: Double { Self.total(searched) }
    /// Seconds kept.
    public var keptDuration: Double { Self.total(kept) }
    /// Seconds cut out.
    public var cutDuration: Double { Self.total(cuts) }

    private static func total(_ ranges: [TimeRange]) -> Double {
        ranges.map { ($0.end - $0.start).seconds }.reduce(0, +)
    }
}
