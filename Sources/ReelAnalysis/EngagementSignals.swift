import Foundation

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
    /// How the largest face engages, 0...1, over the samples where its landmarks were measured:
    /// its smile, or 0.5 for a face turned to the camera, whichever is more. Nil where no face
    /// was measured (no face, or no 68-point landmark model).
    public var faceExpression: Double?
    /// Mean of how clearly something stands out from the background (0 for empty scenery).
    public var subject: Double = 0
    /// Share of samples that look like text on a plain background (titles, credits).
    public var textShare: Double = 0
    /// Median change between samples once the camera's movement is undone (0...1).
    public var subjectMotion: Double = 0
    /// Median camera movement between samples, as a share of the picture's width.
    public var cameraMotion: Double = 0
    /// Loudness in dB above the video's typical loudness (its median over sounding windows).
    public var loudnessAboveTypical: Double = 0
    /// The loudest half second, in dB above the video's typical loudness.
    public var burst: Double = 0
    /// Share of the segment's audio that is near silence (below -55 dBFS).
    public var silenceShare: Double = 0
    /// How much the sound is like speech rather than music or steady noise, 0...1.
    public var speechLikeness: Double = 0

}

extension SegmentFeatures {
    /// Measurements of a segment, all given here or 0 (for mocks; the analyzer measures its own).
    public init(motion: Double = 0, sharpness: Double = 0, brightness: Double = 0, contrast: Double = 0, colorfulness: Double = 0,
                blankFraction: Double = 0, loudness: Double = 0, onsetRate: Double = 0, cutsPerMinute: Double = 0) {
        self.motion = motion
        self.sharpness = sharpness
        self.brightness = brightness
        self.contrast = contrast
        self.colorfulness = colorfulness
        self.blankFraction = blankFraction
        self.loudness = loudness
        self.onsetRate = onsetRate
        self.cutsPerMinute = cutsPerMinute
    }
}

/// One measured cue of how engaging a segment is: a small strategy, so new signals plug in.
public protocol EngagementSignal: Sendable {
    /// The signal's name, used as its key in `EngagementWeights`.
    var name: String { get }
    /// How strongly the segment shows this cue, 0 (not at all) to 1.
    func score(_ features: SegmentFeatures) -> Double
}

/// What moves in the scene: the change between samples once the camera's own movement is
/// undone, so a pan over empty scenery is not action. Saturates at a residual of about 0.08.
public struct MotionSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "motion" }
    public func score(_ features: SegmentFeatures) -> Double { 1 - exp(-features.subjectMotion / 0.025) }
}

/// Something in frame: colors in the middle of the picture that the scenery along its edges
/// does not have (see `FrameFeatures.subject`). Empty sky or bare ground score near 0.
public struct SubjectSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "subject" }
    public func score(_ features: SegmentFeatures) -> Double { features.subject }
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

/// Loudness against the video's own baseline: the typical level scores 0.3, 17 dB above it 1,
/// near silence 0. A loud film and a quiet phone clip are judged each on its own scale.
public struct AudioLoudnessSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "loudness" }
    public func score(_ features: SegmentFeatures) -> Double {
        guard features.loudness > -55 else { return 0 }
        return min(max(0.3 + features.loudnessAboveTypical / 24, 0), 1) * (1 - features.silenceShare)
    }
}

/// Sound events: onsets (impacts, speech attacks, music hits; three strong ones a second score
/// 1) or a burst (cheering, laughter, a crash: a half second 20 dB above the typical level).
public struct AudioOnsetSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "onsets" }
    public func score(_ features: SegmentFeatures) -> Double {
        max(min(features.onsetRate / 3, 1), min(max(features.burst / 20, 0), 1))
    }
}

/// Someone speaking: dialogue draws attention where music or steady noise alone does not.
public struct SpeechSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "speech" }
    public func score(_ features: SegmentFeatures) -> Double {
        features.loudness > -55 ? features.speechLikeness * (1 - features.silenceShare) : 0
    }
}

/// People on screen: a large, central face scores 1 (a face filling a twentieth of the picture
/// and more); where the 68-point landmark model measured the faces, a face neither smiling nor
/// turned to the camera counts three quarters. Faces are looked for on the first sample of each
/// shot and every 2 s, so a segment inside a long shot may have no face sample.
public struct FacePresenceSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "faces" }
    public func score(_ features: SegmentFeatures) -> Double {
        // Smiles and faces turned to the camera engage more: a modest cue, only where measured.
        let expression = features.faceExpression.map { 0.75 + 0.25 * $0 } ?? 1
        return features.faceShare * min(features.faceArea / 0.05, 1) * (0.6 + 0.4 * features.faceCentrality) * expression
    }
}

/// A face seen close while someone speaks: a talking head, the reply in a dialogue's close-up.
/// Scores the face's closeness (its mean share of the picture, 0 at a fiftieth, 1 at an eighth
/// and more: a medium shot's face scores about a third) times how much the sound is like speech.
/// Presence alone (`FacePresenceSignal`) cannot tell a close-up from a medium shot; this cue can.
public struct SpeakingFaceSignal: EngagementSignal {
    /// Creates the signal.
    public init() {}
    public var name: String { "speakingFace" }
    public func score(_ features: SegmentFeatures) -> Double {
        guard features.loudness > -55 else { return 0 }
        let closeness = min(max((features.faceArea - 0.02) / 0.105, 0), 1)
        return closeness * features.speechLikeness
    }
}

/// How much each signal counts, and how pictures that cannot be seen are held down.
///
/// A segment's raw engagement is the weighted mean of its signals (audio signals left out when
/// the video has none), times a visibility factor (1 for a normal picture, 0 for black or blank
/// frames, `darkFloor` for very dark ones), times `1 - textPenalty x` the share of text-like
/// samples (titles, credits). `LevelCalibration` then turns raw engagement into levels 0...9.
/// Defaults: motion 0.45, loudness 0.25, sound events 0.15, speaking close-ups 0.15, faces 0.1,
/// subject 0.05, quality 0.05, speech 0.05, rhythm 0.05 (normalized by their sum). Tuned on real footage
/// (Benchmarks/realeval): picture action and sound carry engagement; the subject cue is weak
/// on its own and mostly steers the key frame and tiles.
public struct EngagementWeights: Sendable, Equatable {
    /// Weight per signal name.
    public var weights: [String: Double]
    /// Visibility factor for a segment whose brightness is near 0 (but not blank).
    public var darkFloor: Double
    /// How much a segment of only text-like pictures is held down (0...1).
    public var textPenalty: Double

    /// The documented defaults.
    public init(weights: [String: Double] = [
                    "motion": 0.45, "loudness": 0.25, "onsets": 0.15, "speakingFace": 0.15, "faces": 0.1, "subject": 0.05,
                    "quality": 0.05, "speech": 0.05, "rhythm": 0.05,
                ],
                darkFloor: Double = 0.3, textPenalty: Double = 0.8) {
        self.weights = weights
        self.darkFloor = darkFloor
        self.textPenalty = textPenalty
    }

    /// The built-in signals.
    public static let standardSignals: [any EngagementSignal] = [
        MotionSignal(), SubjectSignal(), AudioLoudnessSignal(), AudioOnsetSignal(), ShotRhythmSignal(),
        VisualQualitySignal(), FacePresenceSignal(), SpeechSignal(), SpeakingFaceSignal(),
    ]
}

/// Scores segments from their features with weighted signals.
struct EngagementScorer {
    var signals: [any EngagementSignal]
    var weights: EngagementWeights
    /// Whether the source has audio; without it the audio signals are left out of the mean.
    var hasAudio: Bool

    /// The raw engagement, 0...1, before calibration against the rest of the video.
    func raw(_ features: SegmentFeatures) -> Double {
        var total = 0.0, weightSum = 0.0
        for signal in signals {
            if !hasAudio && ["loudness", "onsets", "speech", "speakingFace"].contains(signal.name) { continue }
            let weight = weights.weights[signal.name] ?? 0
            guard weight > 0 else { continue }
            total += weight * min(max(signal.score(features), 0), 1)
            weightSum += weight
        }
        guard weightSum > 0 else { return 0 }
        let visible = 1 - features.blankFraction
        let lit = weights.darkFloor + (1 - weights.darkFloor) * min(features.brightness / 0.15, 1)
        let readable = 1 - weights.textPenalty * features.textShare
        return total / weightSum * visible * lit * readable
    }
}
