import Foundation

/// How clear a segment's pictures are against the rest of its video: sharp (against the
/// video's sharper segments, so a film shot soft is not penalised throughout) and neither
/// nearly black nor blown out. A blurred close-up against the lens, a shot lost in the dark,
/// rank below clear shots of the same video when highlights are chosen.
struct PictureQuality {
    /// The sharpness of the video's sharper segments (the 75th percentile, by duration).
    let typicalSharpness: Double

    init(_ segments: [EngagementSegment]) {
        let sorted = segments.filter { $0.features.blankFraction < 0.5 }
            .map { ($0.features.sharpness, $0.timeRange.duration.seconds) }.sorted { $0.0 < $1.0 }
        let total = sorted.map(\.1).reduce(0, +)
        var seen = 0.0
        var typical = sorted.last?.0 ?? 0
        for (sharpness, seconds) in sorted {
            seen += seconds
            if seen >= 0.75 * total { typical = sharpness; break }
        }
        typicalSharpness = max(typical, 0.005)
    }

    /// 1 for a clear segment, down to 0.4 for one blurred to nothing or far out of exposure.
    func factor(of features: SegmentFeatures) -> Double {
        let sharp = min(features.sharpness / (0.5 * typicalSharpness), 1)
        let brightness = features.brightness
        let exposure = brightness < 0.08 ? brightness / 0.08 : brightness > 0.92 ? (1 - brightness) / 0.08 : 1
        return 0.4 + 0.6 * sharp * max(min(exposure, 1), 0)
    }
}
