import Foundation
import ReelMedia
import ReelSupport

/// A compression to a target quality: the output is cut into segments at shot starts (at
/// least `minimumSegment` long), a short sample of each is encoded at a few rate factors and
/// measured against the source in-process, and each segment is then encoded, in one pass and
/// one output, at the largest rate factor its sample says reaches the target, each starting a
/// closed group of pictures. Audio is encoded once, continuous.
struct TargetQualityJob {
    let plan: CompressionPlan
    let location: OutputLocation
    let progress: CompressionProgress
    let flag: CancellationFlag

    var planner: CompressionPlanner { plan.planner }
    /// The kept ranges; cut where the source's data ends once a sample found the file cut short.
    private(set) var ranges: [ClosedSourceRange]
    /// Where the source's data ends (seconds from its first picture), when a sample met it.
    private var dataEnd: Double?

    init(plan: CompressionPlan, location: OutputLocation, progress: CompressionProgress, flag: CancellationFlag) {
        self.plan = plan
        self.location = location
        self.progress = progress
        self.flag = flag
        ranges = plan.ranges
    }
    /// Shot starts on the API's timeline (from the config's shot planner), or empty.
    private var shotStarts: [Double] { plan.shotStarts }

    /// Rate factors each sample is encoded at.
    static let sampleRateFactors: [Double] = [20, 27, 34]
    /// Seconds of each segment's sample (the whole segment when shorter).
    static let sampleSeconds = 2.0
    /// Segments shorter than this join the one before.
    static let minimumSegment = 3.0

    /// One piece of the output: its source range and where it lands.
    struct Segment {
        var source: ClosedSourceRange
        var outputStart: Double
        var duration: Double { (source.end - source.start).seconds }
    }

    func run(started: Date) throws(ReelError) -> CompressionResult {
        let source = planner.source, url = source.url
        guard let target = planner.config.targetQuality else { throw .invalidConfiguration("no target quality", file: url) }
        var tuned = planner.config
        tuned.useExplicitBitrate = false
        tuned.contentAwareOptimization = false
        let tunedPlanner = planner.with(config: tuned)
        let decision = try tunedPlanner.decide(outputPath: location.temporaryURL.path, ranges: ranges, content: nil)
        guard let videoIndex = source.primaryVideoStreamIndex else { throw .missingVideoTrack(url) }
        let segments = Self.segments(of: ranges, shotStarts: shotStarts.map { $0 + source.startTime })
        let samplingStarted = Date()
        let samples = location.temporaryURL.deletingLastPathComponent()
            .appendingPathComponent(".\(location.temporaryURL.lastPathComponent).sample.mp4")
        defer { try? FileManager.default.removeItem(at: samples) }
        var chosen: [Double] = []
        var measured: [[[Double]]] = []
        let perSample = 0.25 / Double(max(segments.count * Self.sampleRateFactors.count, 1))
        var done = 0
        for segment in segments {
            let sample = onFrameGrid(Self.sampleRange(of: segment.source))
            var points: [(crf: Double, value: Double)] = []
            for crf in Self.sampleRateFactors {
                if flag.isRaised { throw .cancelled }
                let plan = decision.plan.sample([sample], crf: decision.codec.encoderRateFactor(fitted: crf), path: samples.path)
                var sampleDataEnd: Double?
                let values = try translatingFailures(source: url, output: location.temporaryURL) { () throws(MediaFailure) -> [Double] in
                    do throws(MediaFailure) {
                        _ = try Transcoder(plan: plan, shouldCancel: { flag.isRaised }, progress: { _ in }).run()
                    } catch .nothingInRange(let end?, _) where dataEnd == nil {
                        sampleDataEnd = end
                        return []
                    }
                    return try QualityMeter.measure(
                        encoded: samples, source: source, streamIndex: videoIndex, range: sample,
                        referenceFilter: plan.referenceFilter, metric: target.metric, shouldCancel: { flag.isRaised })
                }
                try? FileManager.default.removeItem(at: samples)
                // A sample past the data of a file cut short: everything is planned again over
                // the data there is, as a plain compression of the file keeps what is there.
                if let end = sampleDataEnd { return try cutShort(at: end).run(started: started) }
                if !values.isEmpty { points.append((crf, values.reduce(0, +) / Double(values.count))) }
                done += 1
                progress.report(Double(done) * perSample)
            }
            chosen.append(RateFactorFit.rateFactor(for: target.value, points: points, metric: target.metric))
            measured.append(points.map { [$0.crf, $0.value] })
        }
        let samplingTime = Date().timeIntervalSince(samplingStarted)
        // FFmpeg 5.1's libx265, SVT-AV1 and libvpx cannot change their rate factor mid-stream:
        // one for the whole video.
        let perSegment = decision.codec == .h264
        let context = FinalEncode(
            job: self, decision: decision, segments: segments, metric: target.metric, videoIndex: videoIndex, perSegment: perSegment)
        let points = measured.map { $0.map { (crf: $0[0], value: $0[1]) } }
        // The samples stand alone and cover 2 s of each shot, so they misjudge the pictures
        // inside the long encode (a still camera keeps refining its background; a shot's
        // middle unlike the rest of it). H.264 is encoded again with a rate factor for every
        // half second, each corrected by that window's measured error (a whole shot at one rate
        // factor spends alike on its easy and its hard moments), until its windows are within
        // `tolerance` on average or three encodes are done; HEVC, at one rate factor, once when
        // the output or its segments are off. The encode with the smallest `score` is kept.
        let phases = perSegment ? [(0.25, 0.5), (0.5, 0.75), (0.75, 0.97)] : [(0.3, 0.6), (0.65, 0.95)]
        var latest = try context.encode(schedule: context.schedule(segmentRateFactors: chosen), phase: phases[0])
        var previous: FinalEncode.Outcome?
        var final = latest
        var encodes = 1
        let kept = location.temporaryURL.deletingLastPathComponent()
            .appendingPathComponent(".\(location.temporaryURL.lastPathComponent).kept")
        defer { try? FileManager.default.removeItem(at: kept) }
        try setAside(location.temporaryURL, as: kept)
        let window = ScheduleRefinement.windowLength(frameRate: decision.plan.frameRate)
        while encodes < phases.count {
            let tolerance = Self.tolerance(target.metric)
            let converged = ScheduleRefinement.miss(latest, segments: segments, target: target, length: window) <= tolerance
                && abs(latest.achieved - target.value) <= tolerance
            if perSegment ? converged : !Self.needsCorrection(latest, segments: segments, target: target) { break }
            let refined = perSegment
                ? ScheduleRefinement.windowed(latest, previous: previous, segments: segments, points: points, target: target, length: window)
                : context.schedule(segmentRateFactors: segments.indices.map { index in
                    RateFactorFit.corrected(target: target.value, chosen: decision.codec.fittedRateFactor(encoder: latest.segmentRateFactors[index]),
                                            measured: latest.segmentValues[index], points: points[index], metric: target.metric)
                })
            previous = latest
            latest = try context.encode(schedule: refined, phase: phases[encodes])
            encodes += 1
            if Self.score(latest, segments: segments, target: target, window: window)
                < Self.score(final, segments: segments, target: target, window: window) {
                final = latest
                try setAside(location.temporaryURL, as: kept)
            } else {
                location.discard()
            }
            if !perSegment { break }
        }
        guard (try? FileManager.default.moveItem(at: kept, to: location.temporaryURL)) != nil else {
            throw .encodingFailed(url, operation: "target quality", reason: "cannot restore the kept encode")
        }
        var analytics = try CompressionJob.finishedOutput(
            source: source, decision: decision, statistics: final.statistics, content: nil, location: location,
            progress: progress, flag: flag, started: started)
        analytics.encoding?.constantRateFactor = perSegment ? nil : final.schedule.first?.constantRateFactor
        if analytics.sourceCutShortAt == nil, let dataEnd,
           DataEnd.fallsShort(dataEnd, of: source.duration, lasting: source.duration) {
            analytics.sourceCutShortAt = dataEnd
        }
        analytics.targetQuality = TargetQualityReport(
            metric: target.metric, target: target.value, achieved: final.achieved,
            segments: segments.indices.map { index in
                TargetQualityReport.Segment(
                    start: segments[index].outputStart, end: segments[index].outputStart + segments[index].duration,
                    constantRateFactor: final.segmentRateFactors[index], achieved: final.segmentValues[index],
                    samples: measured[index].map { [decision.codec.encoderRateFactor(fitted: $0[0]), $0[1]] })
            },
            schedule: final.schedule.map { [$0.start, $0.constantRateFactor] },
            sampleEncodes: segments.count * Self.sampleRateFactors.count, samplingTime: samplingTime,
            finalEncodes: encodes, perSegment: perSegment)
        progress.finish()
        return CompressionResult(url: location.finalURL, analytics: analytics)
    }

    /// How far the measured output may be from the target (SSIM, or PSNR in dB) before the
    /// rate factors are corrected and the video encoded once more.
    static func tolerance(_ metric: TargetQuality.Metric) -> Double { metric == .ssim ? 0.001 : 0.1 }

    /// How an encode ranks (lower is better): how far its seconds are from the target
    /// (`ScheduleRefinement.miss`), plus how far its mean is beyond `tolerance`.
    static func score(_ outcome: FinalEncode.Outcome, segments: [Segment], target: TargetQuality, window: Double) -> Double {
        ScheduleRefinement.miss(outcome, segments: segments, target: target, length: window)
            + max(abs(outcome.achieved - target.value) - tolerance(target.metric), 0)
    }

    /// Moves a finished encode aside (replacing what was there), out of the temporary name.
    private func setAside(_ encode: URL, as kept: URL) throws(ReelError) {
        try? FileManager.default.removeItem(at: kept)
        guard (try? FileManager.default.moveItem(at: encode, to: kept)) != nil else {
            throw .encodingFailed(planner.source.url, operation: "target quality", reason: "cannot set an encode aside")
        }
    }

    /// Whether a measured encode is off the target by more than `tolerance`, or its segments
    /// (weighted by duration) by more than twice that on average.
    static func needsCorrection(_ outcome: FinalEncode.Outcome, segments: [Segment], target: TargetQuality) -> Bool {
        let tolerance = tolerance(target.metric)
        if abs(outcome.achieved - target.value) > tolerance { return true }
        let total = segments.map(\.duration).reduce(0, +)
        guard total > 0 else { return false }
        let spread = zip(segments, outcome.segmentValues).map { $0.duration * abs($1 - target.value) }.reduce(0, +) / total
        return spread > 2 * tolerance
    }

    /// This job over the kept ranges cut where the source's video data ends, `end` seconds
    /// from its first picture: ranges past it are left out, one across it is shortened.
    private func cutShort(at end: Double) throws(ReelError) -> TargetQualityJob {
        let edge = MediaTime(seconds: planner.source.startTime + end, timescale: 1_000_000)
        var job = self
        job.dataEnd = end
        job.ranges = ranges.compactMap { range in
            guard range.start < edge else { return nil }
            var kept = range
            kept.end = min(range.end, edge)
            return kept
        }
        guard !job.ranges.isEmpty else {
            let cut = DataEnd.fallsShort(end, of: planner.source.duration, lasting: planner.source.duration)
            throw .decodingFailed(planner.source.url, operation: "decode",
                                  reason: MediaFailure.nothingInRangeText(end, cutShort: cut))
        }
        return job
    }

    /// `range` with its edges on the output's frame grid (as trims are), so the sample's
    /// pictures are the source's own and pair one to one with them when measured.
    private func onFrameGrid(_ range: ClosedSourceRange) -> ClosedSourceRange {
        let origin = MediaTime(seconds: planner.source.startTime, timescale: 1_000_000)
        var snapped = range
        snapped.start = planner.onFrameGrid(range.start - origin) + origin
        snapped.end = planner.onFrameGrid(range.end - origin) + origin
        return snapped.end > snapped.start ? snapped : range
    }

    /// The kept ranges cut at the shot starts (source times) inside them, pieces shorter than
    /// `minimumSegment` joined to the one before; fixed pieces when there are no shot starts.
    static func segments(of ranges: [ClosedSourceRange], shotStarts: [Double]) -> [Segment] {
        var result: [Segment] = []
        var offset = 0.0
        for range in ranges {
            let start = range.start.seconds, end = range.end.seconds
            var cuts = shotStarts.filter { $0 > start && $0 < end }.sorted()
            if shotStarts.isEmpty {
                let pieces = max(Int(((end - start) / TargetQuality.fixedSegmentSeconds).rounded()), 1)
                cuts = (1..<pieces).map { start + (end - start) * Double($0) / Double(pieces) }
            }
            var edges = [start]
            for cut in cuts where cut - (edges.last ?? start) >= minimumSegment && end - cut >= minimumSegment {
                edges.append(cut)
            }
            edges.append(end)
            for (from, to) in zip(edges, edges.dropFirst()) {
                let piece = ClosedSourceRange(
                    start: MediaTime(seconds: from, timescale: 1_000_000), end: MediaTime(seconds: to, timescale: 1_000_000),
                    needsSeek: from > start || range.needsSeek, endsEarly: to < end || range.endsEarly)
                result.append(Segment(source: piece, outputStart: offset + from - start))
            }
            offset += end - start
        }
        return result
    }

    /// The middle `sampleSeconds` of `range` (all of it when shorter).
    static func sampleRange(of range: ClosedSourceRange) -> ClosedSourceRange {
        let length = (range.end - range.start).seconds
        guard length > sampleSeconds else { return range }
        let start = range.start.seconds + (length - sampleSeconds) / 2
        return ClosedSourceRange(
            start: MediaTime(seconds: start, timescale: 1_000_000),
            end: MediaTime(seconds: start + sampleSeconds, timescale: 1_000_000), needsSeek: true, endsEarly: true)
    }
}
