import Foundation
import ReelMedia
import ReelSupport

/// A picture quality the output must reach, shot by shot, at the fewest bytes.
public struct TargetQuality: Sendable, Equatable {
    /// How quality is measured (libavfilter's filters, in-process): `.ssim` or `.psnr`.
    public typealias Metric = QualityMetric

    /// The measure.
    public var metric: Metric
    /// The value each shot's mean must reach.
    public var value: Double
    /// Where shots start; `nil` cuts the video into pieces of `fixedSegmentSeconds`.
    /// `ReelKit` offers the analyzer's shots (`TargetQuality.analyzedShots`).
    public var shots: (any ShotPlanner)?

    /// Pieces the video is cut into without a shot planner, in seconds.
    public static let fixedSegmentSeconds = 5.0

    /// A target of `value` in `metric`, per shot from `shots`.
    public init(_ metric: Metric, _ value: Double, shots: (any ShotPlanner)? = nil) {
        self.metric = metric
        self.value = value
        self.shots = shots
    }

    public static func == (lhs: TargetQuality, rhs: TargetQuality) -> Bool {
        guard lhs.metric == rhs.metric, lhs.value == rhs.value else { return false }
        switch (lhs.shots, rhs.shots) {
        case (nil, nil): return true
        case (let left?, let right?): return left.isEqual(to: right)
        default: return false
        }
    }
}

/// Finds where shots start, for per-shot quality targeting (the compressor calls it first).
public protocol ShotPlanner: Sendable {
    /// Times (seconds on the API's timeline: zero is the first picture) where shots start.
    func shotStarts(of source: MediaInfo) async throws(ReelError) -> [Double]
    /// Whether `other` finds the same shots (so `CompressionConfig` stays `Equatable`).
    func isEqual(to other: any ShotPlanner) -> Bool
}

extension ShotPlanner where Self: Equatable {
    /// Equal when `other` is the same type with equal values.
    public func isEqual(to other: any ShotPlanner) -> Bool { (other as? Self) == self }
}

/// How a compression to a target quality went.
public struct TargetQualityReport: Sendable, Equatable, Codable {
    /// One piece of the output and the rate factor chosen for it.
    public struct Segment: Sendable, Equatable, Codable {
        /// Where it starts and ends on the output's timeline, in seconds.
        public var start: Double
        public var end: Double
        /// The constant rate factor it was encoded with (the mean over its duration when the
        /// schedule changes it within the segment).
        public var constantRateFactor: Double
        /// Its mean quality in the output, measured against the source.
        public var achieved: Double
        /// The quality its sample reached at each rate factor tried (rate factor, value).
        public var samples: [[Double]]
    }

    public var metric: TargetQuality.Metric
    public var target: Double
    /// The output's mean quality over all its pictures, measured against the source.
    public var achieved: Double
    public var segments: [Segment]
    /// The output's rate factors: `[start, crf]` pairs, each from its output time on.
    public var schedule: [[Double]]
    /// Sample encodes run to choose the rate factors.
    public var sampleEncodes: Int
    /// Seconds spent encoding and measuring samples (the cost over one plain encode).
    public var samplingTime: Double
    /// Encodes of the whole video: H.264 2 or 3 (then with a rate factor per half second,
    /// corrected from the measured encode before); HEVC 2 when the first missed the target by
    /// more than 0.001 SSIM (0.1 dB PSNR), else 1.
    public var finalEncodes: Int
    /// Whether the encoder could change its rate factor between segments (x264); x265 in
    /// FFmpeg 5.1 cannot, and then the whole video gets the lowest one the segments need.
    public var perSegment: Bool
}

/// Chooses a rate factor from sample measurements.
enum RateFactorFit {
    /// How far below the lowest rate factor tried a target out of its reach may take a segment.
    static let maximumReach = 4.0
    /// Quality (linearized: SSIM dB or PSNR dB) within which a target out of reach counts as
    /// no better for more bytes.
    static let flatGain = 0.5

    /// The quality as a number that falls about linearly with the rate factor: SSIM in dB
    /// (`-10 log10(1 - ssim)`), PSNR as it is.
    static func linearized(_ value: Double, _ metric: TargetQuality.Metric) -> Double {
        metric == .psnr ? value : -10 * log10(max(1 - value, 1e-6))
    }

    /// How much linearized quality one rate-factor step costs around `crf`, by the points
    /// (the two around it, or the nearest two), within `correctionSlope`.
    static func slope(at crf: Double, points: [(crf: Double, value: Double)], metric: TargetQuality.Metric) -> Double {
        let sorted = points.sorted { $0.crf < $1.crf }.map { ($0.crf, linearized($0.value, metric)) }
        guard sorted.count >= 2 else { return correctionSlope.lowerBound }
        let (a, b) = zip(sorted, sorted.dropFirst()).first { crf <= $0.1.0 } ?? (sorted[sorted.count - 2], sorted[sorted.count - 1])
        let measured = b.0 > a.0 ? (a.1 - b.1) / (b.0 - a.0) : 0
        return min(max(measured, correctionSlope.lowerBound), correctionSlope.upperBound)
    }

    /// Linearized quality (dB) per rate-factor step that corrections assume at least and at
    /// most: SSIM falls about 0.5 dB per step on real footage (BBB, vtest, lavfi clips
    /// between CRF 28 and 32); a sample flat in the rate factor (a dark title whose grain no
    /// rate reproduces) would otherwise send its segment to the end of the scale.
    static let correctionSlope = 0.3...0.8
    /// Slopes (dB per rate-factor step) between two encodes of the same piece that a
    /// correction trusts; outside them (noise, a capped rate factor) the samples' slope is used.
    static let secantSlope = 0.15...1.5
    /// The largest change one correction makes to a rate factor.
    static let correctionStep = 6.0

    /// The rate factor that reaches `target` for a piece that, encoded at `chosen` inside the
    /// whole video, `measured` what it did: the measured point moved to the target along the
    /// slope between it and the `previous` encode's point for the same piece when that slope is
    /// plausible (`secantSlope`), else along the samples' local slope (within
    /// `correctionSlope`), by at most `correctionStep`.
    static func corrected(target: Double, chosen: Double, measured: Double, points: [(crf: Double, value: Double)],
                          metric: TargetQuality.Metric, previous: (crf: Double, value: Double)? = nil,
                          range: ClosedRange<Double> = 12...51) -> Double {
        var slope = slope(at: chosen, points: points, metric: metric)
        if let previous, abs(previous.crf - chosen) >= 0.25 {
            let measuredSlope = (linearized(previous.value, metric) - linearized(measured, metric)) / (chosen - previous.crf)
            if secantSlope.contains(measuredSlope) { slope = measuredSlope }
        }
        let step = (linearized(measured, metric) - linearized(target, metric)) / slope
        let next = chosen + min(max(step, -correctionStep), correctionStep)
        return min(max(next, range.lowerBound), range.upperBound)
    }

    /// The largest rate factor whose quality reaches `target`, interpolating (and at the ends
    /// extrapolating) between the measured `(crf, value)` points, within `range`.
    static func rateFactor(for target: Double, points: [(crf: Double, value: Double)], metric: TargetQuality.Metric,
                           range: ClosedRange<Double> = 12...51) -> Double {
        let sorted = points.sorted { $0.crf < $1.crf }.map { ($0.crf, linearized($0.value, metric)) }
        let goal = linearized(target, metric)
        guard sorted.count >= 2 else { return sorted.first.map { min(max($0.0, range.lowerBound), range.upperBound) } ?? 23 }
        var chosen: Double?
        for (low, high) in zip(sorted, sorted.dropFirst()) where low.1 >= goal && high.1 <= goal {
            let span = low.1 - high.1
            chosen = span > 0 ? low.0 + (high.0 - low.0) * (low.1 - goal) / span : low.0
        }
        if chosen == nil {
            // Outside the measured span: extend the nearest segment's slope; towards higher
            // quality at most `maximumReach` below the lowest rate factor tried, since pictures
            // that even it leaves under the target (dark, grainy) gain little from more bytes.
            let reachingUp = goal > sorted[0].1
            let (a, b) = reachingUp ? (sorted[0], sorted[1]) : (sorted[sorted.count - 2], sorted[sorted.count - 1])
            let slope = (b.1 - a.1) / max(b.0 - a.0, 1e-6)
            let extended = slope < 0 ? a.0 + (goal - a.1) / slope : (reachingUp ? range.lowerBound : range.upperBound)
            chosen = reachingUp ? max(extended, sorted[0].0 - maximumReach) : extended
            // Where the target is out of reach and more bytes buy almost nothing (a dark, grainy
            // title: SSIM 0.938 at CRF 20, 0.934 at 27), the highest rate factor within
            // `flatGain` of the best measured quality.
            if reachingUp, let best = sorted.first?.1,
               let knee = sorted.last(where: { best - $0.1 <= flatGain }), knee.0 > sorted[0].0 {
                chosen = knee.0
            }
        }
        return min(max(chosen ?? 23, range.lowerBound), range.upperBound)
    }
}
