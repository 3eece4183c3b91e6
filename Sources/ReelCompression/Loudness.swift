import Foundation
import ReelSupport

/// A loudness to bring the output's sound to: EBU R128 (ITU-R BS.1770) integrated loudness,
/// with a ceiling for the true peak (the highest level, between samples too).
///
/// The sound of the kept ranges is measured first, as the encode joins it, then changed by one
/// gain (linear normalisation: its dynamics stay as they were); where that gain would push the
/// peaks over the ceiling, a true-peak limiter holds them under it. See
/// `CompressionConfig.loudness` and `CompressionAnalytics.loudness`.
public struct LoudnessTarget: Sendable, Equatable {
    /// Integrated loudness in LUFS (-14: what streaming services and social apps play at).
    public var integrated: Double
    /// The highest true peak allowed, in dBTP.
    public var truePeak: Double

    /// Creates a target; by default -14 LUFS with peaks at most -1 dBTP.
    public init(integrated: Double = -14, truePeak: Double = -1) {
        self.integrated = integrated
        self.truePeak = truePeak
    }

    /// -14 LUFS, peaks at most -1 dBTP: the level posted videos are played at.
    public static let streaming = LoudnessTarget()

    /// Throws when the values are outside what `ebur128` measures sensibly.
    func validate() throws(ReelError) {
        if !(-40 ... -5).contains(integrated) {
            throw .invalidConfiguration("a loudness target is between -40 and -5 LUFS (-14 for posting), got \(integrated)")
        }
        if !(-9 ... 0).contains(truePeak) {
            throw .invalidConfiguration("a true-peak ceiling is between -9 and 0 dBTP (-1 usually), got \(truePeak)")
        }
    }
}

/// Integrated loudness and true peak, as measured.
public struct MeasuredLoudness: Sendable, Equatable, Codable {
    /// Integrated loudness in LUFS (-70 for silence).
    public var integrated: Double
    /// True peak in dBTP.
    public var truePeak: Double

    /// Creates a measurement.
    public init(integrated: Double, truePeak: Double) {
        self.integrated = integrated
        self.truePeak = truePeak
    }
}

/// How a compression brought its sound to a `LoudnessTarget`: what it measured before and
/// after, and what it did (for the main audio track).
public struct LoudnessReport: Sendable, Equatable, Codable {
    /// The target.
    public var target: LoudnessTarget
    /// The kept ranges' sound as the encode joins it, before any change.
    public var source: MeasuredLoudness
    /// The output's sound as a player decodes it; `nil` when it could not be measured.
    public var output: MeasuredLoudness?
    /// The gain applied, in dB.
    public var gain: Double
    /// Whether a true-peak limiter held the peaks under the ceiling (the gain alone would have
    /// pushed them over it).
    public var limited: Bool
    /// Wall-clock seconds the measuring passes took.
    public var measuringTime: Double

    /// Creates a report.
    public init(target: LoudnessTarget, source: MeasuredLoudness, output: MeasuredLoudness?, gain: Double, limited: Bool,
                measuringTime: Double) {
        self.target = target
        self.source = source
        self.output = output
        self.gain = gain
        self.limited = limited
        self.measuringTime = measuringTime
    }
}
