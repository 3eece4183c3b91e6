import Foundation
import ReelMedia
import ReelSupport

/// Everything measured on one segment of the timeline, the input of engagement signals.
public struct SegmentFeatures: Sendable, Equatable, Codable {
    /// Median picture change between sampled frames, cuts excluded (0...1).
    public var motion: Double
    /// Mean sharpness (0...1).
    public var sharpness: Double
    /// Mean brightness (0...1).
    public var brightness: Double
    /// Mean contrast (0...1).
    public var contrast: Double
    /// Mean colorfulness (0...1).
    public var colorfulness: Double
    /// Fraction of sampled frames that are black or blank.
    public var blankFraction: Double
    /// Mean loudness in dBFS (-100 when there is no audio).
    public var loudness: Double
    /// Onsets per second (each 0...1 strength summed).
    public var onsetRate: Double
    /// Shot boundaries per minute in the 20 s around the segment.
    public var cutsPerMinute: Double
    /// Share (0...1) of the face-searched samples in the segment that show a face.
    public var faceShare: Double = 0
    /// Mean share of the picture the largest face covers, over the face-searched samples.
    public var faceArea: Double = 0
    /// Mean centrality (0...1) of the largest face, over the samples that show one.
    public var faceCentrality: Double = 0
}

/// One measured cue of how engaging a segment is: a small strategy, so new signals plug in.
public protocol EngagementSignal: Sendable {
    /// The signal's name, used as its key in `EngagementWeights`.
    var name: String { get }
    /// How strongly the segment shows this cue, 0 (not at all) to 1.
    func score(_ features: SegmentFeatures) -> Double
}

/// Picture activity: saturates at a change of about 0.08 between samples.
public struct MotionSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "motion" }
    public func score(_ features: SegmentFeatures) -> Double { 1 - exp(-features.motion / 0.03) }
}

/// Shot rhythm: quick cutting reads as energetic; one cut every 2 s or faster scores 1.
public struct ShotRhythmSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "rhythm" }
    public func score(_ features: SegmentFeatures) -> Double { min(features.cutsPerMinute / 30, 1) }
}

/// Visual quality: sharp, well exposed, contrasty, colorful pictures.
public struct VisualQualitySignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "quality" }
    public func score(_ features: SegmentFeatures) -> Double {
        let sharp = min(features.sharpness / 0.08, 1)
        let exposure = max(0, 1 - abs(features.brightness - 0.45) / 0.4)
        let contrast = min(features.contrast / 0.2, 1)
        let color = min(features.colorfulness / 0.25, 1)
        return 0.35 * sharp + 0.3 * exposure + 0.2 * contrast + 0.15 * color
    }
}

/// Loudness: -50 dBFS or quieter scores 0, -12 dBFS or louder scores 1.
public struct AudioLoudnessSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "loudness" }
    public func score(_ features: SegmentFeatures) -> Double { min(max((features.loudness + 50) / 38, 0), 1) }
}

/// Audio onsets (cheers, impacts, speech attacks): three strong onsets a second score 1.
public struct AudioOnsetSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "onsets" }
    public func score(_ features: SegmentFeatures) -> Double { min(features.onsetRate / 3, 1) }
}

/// People on screen: a large, central face scores 1 (a face filling a twentieth of the picture
/// and more). Measured on every analysis; not weighted by default (`EngagementWeights`), so levels
/// are as before unless you give it a weight.
public struct FacePresenceSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "faces" }
    public func score(_ features: SegmentFeatures) -> Double {
        features.faceShare * min(features.faceArea / 0.05, 1) * (0.6 + 0.4 * features.faceCentrality)
    }
}

/// How much each signal counts, and how pictures that cannot be seen are held down.
///
/// The engagement of a segment is the weighted mean of its signals, times a visibility factor
/// (1 for a normal picture, falling to 0 for black or blank frames and to `darkFloor` for very
/// dark ones), times 9. Defaults: motion 0.35, loudness 0.2, onsets 0.15, rhythm 0.1, quality 0.2.
public struct EngagementWeights: Sendable, Equatable {
    /// Weight per signal name.
    public var weights: [String: Double]
    /// Visibility factor for a segment whose brightness is near 0 (but not blank).
    public var darkFloor: Double

    /// The documented defaults.
    public init(weights: [String: Double] = ["motion": 0.35, "loudness": 0.2, "onsets": 0.15, "rhythm": 0.1, "quality": 0.2],
                darkFloor: Double = 0.3) {
        self.weights = weights
        self.darkFloor = darkFloor
    }

    /// The built-in signals.
    public static let standardSignals: [any EngagementSignal] = [
        MotionSignal(), AudioLoudnessSignal(), AudioOnsetSignal(), ShotRhythmSignal(), VisualQualitySignal(),
        FacePresenceSignal(),
    ]
}

/// Scores segments from their features with weighted signals.
struct EngagementScorer {
    var signals: [any EngagementSignal]
    var weights: EngagementWeights
    /// Whether the source has audio; without it the audio signals are left out of the mean.
    var hasAudio: Bool

    /// The engagement level, 0...9.
    func level(_ features: SegmentFeatures) -> Double {
        var total = 0.0, weightSum = 0.0
        for signal in signals {
            if !hasAudio && (signal.name == "loudness" || signal.name == "onsets") { continue }
            let weight = weights.weights[signal.name] ?? 0
            guard weight > 0 else { continue }
            total += weight * min(max(signal.score(features), 0), 1)
            weightSum += weight
        }
        guard weightSum > 0 else { return 0 }
        let visible = 1 - features.blankFraction
        let lit = weights.darkFloor + (1 - weights.darkFloor) * min(features.brightness / 0.15, 1)
        return (9 * total / weightSum * visible * lit * 100).rounded() / 100
    }
}
