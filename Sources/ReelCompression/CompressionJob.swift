import Foundation
import ReelMedia
import ReelSupport

/// Runs one `CompressionPlan` from start to finish on a blocking thread: every stage reads the
/// plan's probed facts and decisions, and reopens the file only to read its packets.
struct CompressionJob: Sendable {
    let plan: CompressionPlan
    let progress: CompressionProgress
    let flag: CancellationFlag

    /// The share of a job's progress its loudness passes take (audio alone: quick beside the encode).
    static let loudnessShare = 0.1

    func run() throws(ReelError) -> CompressionResult {
        // Timed from the start of planning, so the result's time is the whole compression's.
        let started = Date(timeIntervalSinceNow: -plan.planningTime)
        if flag.isRaised { throw .cancelled }
        let location = try OutputLocation.resolve(for: plan.source.url, finalURL: plan.outputURL)
        var plan = plan, progress = progress
        var loudness: LoudnessReport?
        do throws(ReelError) {
            // Only where there is sound to measure (none kept: no audio, a GIF, --no-audio).
            if let target = plan.config.loudness, !plan.config.streamCopy, try !plan.planner.keptAudioStreams().isEmpty {
                progress.stage(.measuringLoudness)
                if let outcome = try LoudnessNormalization.decide(
                    planner: plan.planner, ranges: plan.ranges, target: target, shouldCancel: { flag.isRaised },
                    progress: progress.phase(from: 0, to: Self.loudnessShare)) {
                    plan.planner.loudness = outcome.adjustments
                    loudness = outcome.report
                }
                progress = progress.subrange(from: Self.loudnessShare, to: 1)
            }
            var result: CompressionResult
            if plan.config.streamCopy {
                result = try StreamCopyJob(plan: plan, location: location, progress: progress, flag: flag).run(started: started)
            } else if plan.config.fileType.isAnimatedImage {
                result = try AnimatedImageJob(plan: plan, location: location, progress: progress, flag: flag).run(started: started)
            } else if plan.config.targetQuality != nil {
                result = try TargetQualityJob(plan: plan, location: location, progress: progress, flag: flag).run(started: started)
            } else if plan.config.targetFileSize != nil {
                result = try TargetSizeJob(plan: plan, location: location, progress: progress, flag: flag).run(started: started)
            } else {
                result = try Self.encode(
                    planner: plan.planner, ranges: plan.ranges, location: location, progress: progress, flag: flag,
                    started: started, committing: true)
            }
            result.analytics.planningTime = plan.planningTime
            result.analytics.cameraPath = plan.cameraPath
            result.trimBasis = plan.trimBasis
            // A reel of a file cut short reads only its pieces, not to the data's end; its
            // analysis read all of it.
            if result.analytics.sourceCutShortAt == nil, let covered = plan.trimBasis?.coveredDuration, covered > 0,
               DataEnd.fallsShort(covered, of: plan.source.duration, lasting: plan.source.duration) {
                result.analytics.sourceCutShortAt = covered
            }
            if var loudness {
                // Measured on the finished file, as a player decodes it; sound that came out of
                // the checked range is replaced by the checked sound itself.
                loudness.output = LoudnessNormalization.measureOutput(result.url, flag: flag)
                if let heard = loudness.output, !LoudnessNormalization.meets(heard, loudness.target) {
                    try LoudnessNormalization.replaceSound(of: result.url, planner: plan.planner, ranges: plan.ranges,
                                                           shouldCancel: { flag.isRaised })
                    loudness.output = LoudnessNormalization.measureOutput(result.url, flag: flag)
                    result.analytics.compressedFileSize = FileSize.of(result.url)
                    if result.analytics.compressedFileSize > 0 {
                        result.analytics.compressionRatio = Double(result.analytics.originalFileSize)
                            / Double(result.analytics.compressedFileSize)
                    }
                }
                result.analytics.loudness = loudness
            }
            return result
        } catch {
            location.abandon()
            throw location.naming(error)
        }
    }

    /// One encode of `ranges` with `planner`'s settings into `location`'s temporary file,
    /// renamed into place when `committing` (else left for the caller to check).
    static func encode(
        planner: CompressionPlanner, ranges: [ClosedSourceRange], location: OutputLocation, progress: CompressionProgress,
        flag: CancellationFlag, started: Date, committing: Bool
    ) throws(ReelError) -> CompressionResult {
        let source = planner.source
        progress.stage(.encoding)
        let content = try ContentAwareTuning.measure(source, over: ranges, when: planner.config.contentAwareOptimization,
                                                     measured: planner.contentBursts, shouldCancel: { flag.isRaised })
        if content != nil { progress.report(0.03) }
        let decision = try planner.decide(outputPath: location.temporaryURL.path, ranges: ranges, content: content)
        let transcodeProgress = progress.phase(from: 0.03, to: 0.97)
        let statistics = try translatingFailures(source: source.url, output: location.temporaryURL) { () throws(MediaFailure) in
            try Transcoder(plan: decision.plan, shouldCancel: { flag.isRaised }, progress: transcodeProgress).run()
        }
        let analytics = try finishedOutput(
            source: source, decision: decision, statistics: statistics, content: content, location: location,
            progress: progress, flag: flag, started: started, committing: committing)
        if committing { progress.finish() }
        return CompressionResult(url: location.finalURL, analytics: analytics)
    }

    /// The last steps of every re-encode: stops if cancelled, probes the temporary output,
    /// renames it into place when `committing`, and measures it against the source.
    static func finishedOutput(
        source: MediaInfo, decision: CompressionPlanner.Decision, statistics: TranscodeStatistics,
        content: ContentAdjustment?, location: OutputLocation, progress: CompressionProgress, flag: CancellationFlag,
        started: Date, committing: Bool = true
    ) throws(ReelError) -> CompressionAnalytics {
        if flag.isRaised { throw .cancelled }
        let output = try MediaInfo.probe(location.temporaryURL)
        progress.report(0.99)
        if committing { try location.commit() }
        return CompressionAnalyticsBuilder(
            source: source, output: output, decision: decision, statistics: statistics,
            content: content, processingTime: Date().timeIntervalSince(started)
        ).build()
    }
}
