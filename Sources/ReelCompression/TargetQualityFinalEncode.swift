import Foundation
import ReelMedia
import ReelSupport

/// The whole-video encode of a target-quality job at given rate factors, and its measurement:
/// the finished output is compared with the source picture by picture (streaming), so the
/// report gives what was reached, segment by segment, not what the samples predicted.
struct FinalEncode {
    let job: TargetQualityJob
    let decision: CompressionPlanner.Decision
    let segments: [TargetQualityJob.Segment]
    let metric: QualityMetric
    let videoIndex: Int
    /// Whether the encoder takes a rate factor per segment (x264), else one for all.
    let perSegment: Bool

    /// One encode, in the job's temporary file, and what it reached.
    struct Outcome {
        var statistics: TranscodeStatistics
        /// The rate factor each segment was encoded with.
        var rateFactors: [Double]
        /// Each segment's mean measured quality.
        var segmentValues: [Double]
        /// The mean over every picture of the output.
        var achieved: Double
    }

    /// Encodes the video with `rateFactors` (one per segment) and measures the result;
    /// progress runs over `phase`, the encode taking its first 80%.
    func encode(rateFactors: [Double], phase: (from: Double, to: Double)) throws(ReelError) -> Outcome {
        let location = job.location, flag = job.flag, source = job.planner.source, url = source.url
        if flag.isRaised { throw .cancelled }
        let rounded = rateFactors.map { ($0 * 100).rounded() / 100 }
        let used = perSegment ? rounded : Array(repeating: rounded.min() ?? 23, count: rounded.count)
        let schedule = perSegment
            ? zip(segments, used).map { RateChange(start: $0.outputStart, constantRateFactor: $1) }
            : [RateChange(start: 0, constantRateFactor: used.first ?? 23)]
        let split = phase.from + (phase.to - phase.from) * 0.8
        job.progress.stage(.encoding)
        let plan = decision.plan.scheduling(schedule)
        let statistics = try translatingFailures(source: url, output: location.temporaryURL) { () throws(MediaFailure) in
            try Transcoder(plan: plan, shouldCancel: { flag.isRaised }, progress: job.progress.phase(from: phase.from, to: split)).run()
        }
        var offset = 0.0
        let placed = job.ranges.map { range in
            defer { offset += (range.end - range.start).seconds }
            return PlacedRange(source: range, outputStart: offset)
        }
        let values = try translatingFailures(source: url, output: location.temporaryURL) { () throws(MediaFailure) in
            try OutputQualityMeter.measure(
                encoded: location.temporaryURL, source: source, streamIndex: videoIndex, placed: placed,
                referenceFilter: decision.plan.referenceFilter, metric: metric, shouldCancel: { flag.isRaised })
        }
        job.progress.report(phase.to)
        guard !values.isEmpty else {
            throw .encodingFailed(url, operation: "target quality", reason: "the output could not be measured against the source")
        }
        let achieved = Self.mean(values.map(\.value))
        let segmentValues = segments.map { segment in
            let inside = values.filter { $0.time >= segment.outputStart - 1e-3 && $0.time < segment.outputStart + segment.duration - 1e-3 }
            return inside.isEmpty ? achieved : Self.mean(inside.map(\.value))
        }
        return Outcome(statistics: statistics, rateFactors: used, segmentValues: segmentValues, achieved: achieved)
    }

    /// The arithmetic mean (finite values only: PSNR is infinite on identical pictures).
    static func mean(_ values: [Double]) -> Double {
        let finite = values.map { $0.isFinite ? $0 : 100 }
        return finite.isEmpty ? 0 : finite.reduce(0, +) / Double(finite.count)
    }
}
