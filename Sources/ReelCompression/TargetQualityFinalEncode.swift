import Foundation
import ReelMedia
import ReelSupport

/// The whole-video encode of a target-quality job on a rate schedule, and its measurement:
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
        /// The rate factors it was encoded with, from their output times on.
        var schedule: [RateChange]
        /// Every picture's measured quality, with its output time.
        var frames: [(time: Double, value: Double)]
        /// Each segment's rate factor: the mean over its duration.
        var segmentRateFactors: [Double]
        /// Each segment's mean measured quality.
        var segmentValues: [Double]
        /// The mean over every picture of the output.
        var achieved: Double
    }

    /// One rate factor per segment from its start, each opening a keyframe (one rate factor,
    /// the lowest, when the encoder takes only one), from the fit's rate factors to the
    /// encoder's (`VideoCodec.encoderRateFactor(fitted:)`).
    func schedule(segmentRateFactors: [Double]) -> [RateChange] {
        let rounded = segmentRateFactors.map { ($0 * 100).rounded() / 100 }
        guard perSegment else {
            return [RateChange(start: 0, constantRateFactor: decision.codec.encoderRateFactor(fitted: rounded.min() ?? 23))]
        }
        return zip(segments, rounded).map { RateChange(start: $0.outputStart, constantRateFactor: $1) }
    }

    /// Encodes the video on `schedule` and measures the result; progress runs over `phase`,
    /// the encode taking its first 80%.
    func encode(schedule: [RateChange], phase: (from: Double, to: Double)) throws(ReelError) -> Outcome {
        let location = job.location, flag = job.flag, source = job.planner.source, url = source.url
        if flag.isRaised { throw .cancelled }
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
        let frames = try translatingFailures(source: url, output: location.temporaryURL) { () throws(MediaFailure) in
            try QualityMeter.measure(
                encoded: location.temporaryURL, source: source, streamIndex: videoIndex, placed: placed,
                referenceFilter: decision.plan.referenceFilter, metric: metric, shouldCancel: { flag.isRaised })
        }
        job.progress.report(phase.to)
        guard !frames.isEmpty else {
            throw .encodingFailed(url, operation: "target quality", reason: "the output could not be measured against the source")
        }
        let achieved = Self.mean(frames.map(\.value))
        let segmentValues = Self.means(of: frames, in: segments.map { (start: $0.outputStart, end: $0.outputStart + $0.duration) })
            .map { $0 ?? achieved }
        let segmentRateFactors = segments.map { Self.meanRateFactor(of: schedule, from: $0.outputStart, to: $0.outputStart + $0.duration) }
        return Outcome(statistics: statistics, schedule: schedule, frames: frames, segmentRateFactors: segmentRateFactors,
                       segmentValues: segmentValues, achieved: achieved)
    }

    /// The rate factor `schedule` gives between two output times, averaged over the time.
    static func meanRateFactor(of schedule: [RateChange], from start: Double, to end: Double) -> Double {
        guard end > start else { return rateFactor(of: schedule, at: start) }
        var total = 0.0
        var time = start
        while time < end - 1e-6 {
            let next = schedule.first { $0.start > time + 1e-6 }?.start ?? end
            let stop = min(next, end)
            total += rateFactor(of: schedule, at: time) * (stop - time)
            time = stop
        }
        return ((total / (end - start)) * 100).rounded() / 100
    }

    /// The rate factor `schedule` gives at an output time.
    static func rateFactor(of schedule: [RateChange], at time: Double) -> Double {
        schedule.last { $0.start <= time + 1e-6 }?.constantRateFactor ?? schedule.first?.constantRateFactor ?? 23
    }

    /// The mean measured quality inside each span (output seconds, in time order, not
    /// overlapping), `nil` for a span without pictures: one pass over the pictures, which the
    /// meter gives in time order (a 2-hour output has 200 000 of them and 14 000 windows).
    static func means(of frames: [(time: Double, value: Double)], in spans: [(start: Double, end: Double)]) -> [Double?] {
        let ordered = zip(frames, frames.dropFirst()).allSatisfy { $0.time <= $1.time } ? frames : frames.sorted { $0.time < $1.time }
        var result: [Double?] = []
        var next = 0
        for span in spans {
            while next < ordered.count && ordered[next].time < span.start - 1e-3 { next += 1 }
            var sum = 0.0, count = 0
            while next < ordered.count && ordered[next].time < span.end - 1e-3 {
                sum += ordered[next].value.isFinite ? ordered[next].value : 100
                count += 1
                next += 1
            }
            result.append(count > 0 ? sum / Double(count) : nil)
        }
        return result
    }

    /// The arithmetic mean (finite values only: PSNR is infinite on identical pictures).
    static func mean(_ values: [Double]) -> Double {
        let finite = values.map { $0.isFinite ? $0 : 100 }
        return finite.isEmpty ? 0 : finite.reduce(0, +) / Double(finite.count)
    }
}
