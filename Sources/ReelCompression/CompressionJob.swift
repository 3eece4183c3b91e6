import Foundation
import ReelFrameReduction
import ReelMedia
import ReelSupport

/// One compression from start to finish, run on a blocking thread, on a source probed once
/// before it started: every stage reads the probed facts, and reopens the file only to read its
/// packets.
struct CompressionJob: Sendable {
    let source: MediaInfo
    let config: CompressionConfig
    let reducer: any VideoFrameReducer
    let progress: ProgressReporter
    let flag: CancellationFlag
    /// Shot starts for a target quality (the config's shot planner ran first), else empty.
    var shotStarts: [Double] = []
    /// Whether this is one chunk of a chunked encode (see `TargetSizeJob.isChunk`).
    var isChunk = false

    func run() throws(ReelError) -> CompressionResult {
        let started = Date()
        let url = source.url
        try source.requireVideo()
        let location = try config.outputLocation(for: url)
        if flag.isRaised { throw .cancelled }
        let planner = CompressionPlanner(source: source, config: config, reducer: reducer)
        do throws(ReelError) {
            let ranges = try planner.keptRanges()
            if config.streamCopy {
                return try StreamCopyJob(planner: planner, requested: ranges, location: location,
                                         progress: progress, flag: flag).run(started: started)
            }
            if config.targetQuality != nil {
                return try TargetQualityJob(planner: planner, ranges: ranges, shotStarts: shotStarts, location: location,
                                            progress: progress, flag: flag).run(started: started)
            }
            if config.targetFileSize != nil {
                return try TargetSizeJob(planner: planner, ranges: ranges, location: location, progress: progress, flag: flag,
                                         isChunk: isChunk).run(started: started)
            }
            return try runEncode(ranges: ranges, location: location, started: started, committing: true)
        } catch {
            location.discard()
            throw location.naming(error)
        }
    }

    /// One encode of `ranges` with the config's settings into `location`'s temporary file,
    /// renamed into place when `committing` (else left for the caller to check).
    func runEncode(ranges: [ClosedSourceRange], location: OutputLocation, started: Date, committing: Bool) throws(ReelError) -> CompressionResult {
        let url = source.url
        let planner = CompressionPlanner(source: source, config: config, reducer: reducer)
        progress.stage(.encoding)
        let content = try measureContent(in: ranges)
        let decision = try planner.decide(outputPath: location.temporaryURL.path, ranges: ranges, content: content)
        let transcodeProgress = progress.phase(from: 0.03, to: 0.97)
        let statistics = try translatingFailures(source: url, output: location.temporaryURL) { () throws(MediaFailure) in
            try Transcoder(plan: decision.plan, shouldCancel: { flag.isRaised },
                           progress: transcodeProgress).run()
        }
        let analytics = try Self.finishedOutput(
            source: source, decision: decision, statistics: statistics, content: content, location: location,
            progress: progress, flag: flag, started: started, committing: committing)
        if committing { progress.finish() }
        return CompressionResult(url: location.finalURL, analytics: analytics)
    }

    /// The last steps of every re-encode: stops if cancelled, probes the temporary output,
    /// renames it into place when `committing`, and measures it against the source.
    static func finishedOutput(
        source: MediaInfo, decision: CompressionPlanner.Decision, statistics: TranscodeStatistics,
        content: ContentAdjustment?, location: OutputLocation, progress: ProgressReporter, flag: CancellationFlag,
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

    /// Motion and detail sampled over the kept ranges, when content-aware optimization is on.
    private func measureContent(in ranges: [ClosedSourceRange]) throws(ReelError) -> ContentAdjustment? {
        let adjustment = try ContentAwareTuning.measure(source, over: ranges, when: config.contentAwareOptimization,
                                                        shouldCancel: { flag.isRaised })
        if adjustment != nil { progress.report(0.03) }
        return adjustment
    }
}

extension CompressionConfig {
    /// Where the output of `source` goes: `outputURL`, or a generated name in `outputDirectory`.
    func outputLocation(for source: URL) throws(ReelError) -> OutputLocation {
        let finalURL = outputURL
            ?? OutputLocation.generatedURL(for: source, in: outputDirectory, fileExtension: fileType.fileExtension)
        return try OutputLocation.resolve(for: source, finalURL: finalURL)
    }
}
