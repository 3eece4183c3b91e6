import Foundation
import ReelFrameReduction
import ReelMedia
import ReelSupport

/// One compression from start to finish, run on a blocking thread.
struct CompressionJob: Sendable {
    let source: URL
    let config: CompressionConfig
    let reducer: any VideoFrameReducer
    let progress: ProgressReporter
    let flag: CancellationFlag

    func run() throws(ReelError) -> CompressionResult {
        let started = Date()
        try config.validate()
        let info = try MediaInfo.probe(source)
        guard info.primaryVideo != nil else { throw .missingVideoTrack(source) }
        let location = try config.outputLocation(for: source)
        if flag.isRaised { throw .cancelled }
        if config.streamCopy {
            do throws(ReelError) {
                return try StreamCopyJob(source: source, info: info, config: config, location: location,
                                         progress: progress, flag: flag).run(started: started)
            } catch {
                location.discard()
                throw error
            }
        }

        do throws(ReelError) {
            let content = try measureContent(info)
            let decision = try CompressionPlanner(source: info, config: config, reducer: reducer, content: content)
                .decide(outputPath: location.temporaryURL.path)
            let transcodeProgress = progress.phase(from: 0.03, to: 0.97)
            let statistics = try translatingFailures(source: source, output: location.temporaryURL) { () throws(MediaFailure) in
                try Transcoder(plan: decision.plan, shouldCancel: { flag.isRaised },
                               progress: transcodeProgress).run()
            }
            if flag.isRaised { throw .cancelled }
            let output = try MediaInfo.probe(location.temporaryURL)
            progress.report(0.99)
            try location.commit()
            let analytics = CompressionAnalyticsBuilder(
                source: info, output: output, decision: decision, statistics: statistics,
                content: content, processingTime: Date().timeIntervalSince(started)
            ).build()
            progress.finish()
            return CompressionResult(url: location.finalURL, analytics: analytics)
        } catch {
            location.discard()
            throw error
        }
    }

    private func measureContent(_ info: MediaInfo) throws(ReelError) -> ContentAdjustment? {
        guard config.contentAwareOptimization, let video = info.primaryVideoStreamIndex else { return nil }
        let ranges = try CompressionPlanner(source: info, config: config, reducer: reducer, content: nil).keptRanges()
        let start = ranges.map(\.start).min() ?? .zero, end = ranges.map(\.end).max() ?? .zero
        let profile = try translatingFailures(source: source, output: source) { () throws(MediaFailure) in
            try ContentSampler.measure(url: source, streamIndex: video, start: start.seconds,
                                       end: end.seconds, shouldCancel: { flag.isRaised })
        }
        progress.report(0.03)
        return ContentAwareTuning.adjustment(for: profile)
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
