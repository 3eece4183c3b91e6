import ReelMedia
import ReelSupport

/// What content-aware optimization measured on the source and how it changed the encoding.
///
/// Six short bursts of frames spread over the kept range are decoded (or taken from the framing
/// pass's decode, which reads them anyway); motion is the mean luma
/// change between consecutive frames, detail the mean difference between neighbouring pixels.
/// - static (motion < 0.004: slides, screen recordings, tripod shots): keyframe interval x4 and
///   bit rate x0.7: nothing moves, so long GOPs and fewer bits lose nothing;
/// - calm (motion < 0.02): keyframe interval x2, bit rate x0.85;
/// - busy (motion > 0.08): bit rate x1.2 and CRF +1, since motion masks fine loss but needs bits;
/// - otherwise unchanged. Rich detail (detail > 0.06) adds x1.1 to the bit rate.
/// - unmeasured (fewer than `minimumPairs` frame pairs could be measured: a sparse or very
///   short video): the preset's settings are left as they are. No measurement is not "static".
/// The result is still clamped to the source's bit rate and never raises it.
public struct ContentAdjustment: Sendable, Equatable, Codable {
    /// The measured motion and detail.
    public var profile: ContentProfile
    /// `static`, `calm`, `normal`, `busy`, or `unmeasured` (too few frames to tell).
    public var category: String
    /// Factor applied to `maxKeyFrameInterval`.
    public var keyFrameIntervalFactor: Int
    /// Factor applied to the video bit rate.
    public var bitrateFactor: Double
    /// Added to the CRF.
    public var constantRateFactorOffset: Double
}

/// Maps a measured `ContentProfile` to encoder adjustments (see `ContentAdjustment`).
enum ContentAwareTuning {
    /// Frame pairs (of the six bursts) a measurement needs before it may change anything.
    static let minimumPairs = 3

    /// Motion and detail sampled over `ranges` of `source` and what they change, when
    /// `enabled` (content-aware optimization is on) and the source has video. Bursts in
    /// `measured` (when it is for the same span) are not decoded again.
    static func measure(
        _ source: MediaInfo, over ranges: [ClosedSourceRange], when enabled: Bool, measured: ContentBursts? = nil,
        shouldCancel: @escaping () -> Bool
    ) throws(ReelError) -> ContentAdjustment? {
        guard enabled, let video = source.primaryVideoStreamIndex else { return nil }
        let planned = bursts(over: ranges)
        let known = measured.flatMap { $0.times == planned.times ? $0 : nil } ?? planned
        let bursts = try translatingFailures(source: source.url, output: source.url) { () throws(MediaFailure) in
            try ContentSampler.measure(known, source: source, streamIndex: video, shouldCancel: shouldCancel)
        }
        return adjustment(for: bursts.profile)
    }

    /// The bursts measured over `ranges`: spread from the first range's start to the last one's end.
    static func bursts(over ranges: [ClosedSourceRange]) -> ContentBursts {
        let start = ranges.map(\.start).min() ?? .zero, end = ranges.map(\.end).max() ?? .zero
        return ContentBursts(start: start.seconds, end: end.seconds)
    }

    static func adjustment(for profile: ContentProfile) -> ContentAdjustment {
        var adjustment = ContentAdjustment(
            profile: profile, category: "normal", keyFrameIntervalFactor: 1, bitrateFactor: 1,
            constantRateFactorOffset: 0)
        guard profile.samples >= minimumPairs else {
            adjustment.category = "unmeasured"
            return adjustment
        }
        switch profile.motion {
        case ..<0.004:
            adjustment.category = "static"
            adjustment.keyFrameIntervalFactor = 4
            adjustment.bitrateFactor = 0.7
        case ..<0.02:
            adjustment.category = "calm"
            adjustment.keyFrameIntervalFactor = 2
            adjustment.bitrateFactor = 0.85
        case 0.08...:
            adjustment.category = "busy"
            adjustment.bitrateFactor = 1.2
            adjustment.constantRateFactorOffset = 1
        default:
            break
        }
        if profile.detail > 0.06 { adjustment.bitrateFactor *= 1.1 }
        return adjustment
    }
}
