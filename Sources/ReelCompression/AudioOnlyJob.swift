import Foundation
import ReelFrameReduction
import ReelMedia
import ReelSupport

extension VideoCompressor {
    /// Encodes only the sound `config` keeps of `source` (its tracks, codec, rate and channels,
    /// on the timeline the full compression would give it), with its text subtitles, into
    /// `url`, written under a temporary name and renamed when complete: the audio job of a
    /// chunked encode.
    public func encodeAudio(
        of source: MediaInfo, config: CompressionConfig, to url: URL, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> URL {
        do throws(ReelError) {
            try config.validate()
            let flag = CancellationFlag()
            let progress = ProgressReporter(progressHandler)
            return try await BlockingWork.run(flag: flag) { () throws(ReelError) in
                try Self.runAudioJob(source: source, config: config, url: url, progress: progress, flag: flag)
            }
        } catch {
            throw error.naming(source: source.url)
        }
    }

    private static func runAudioJob(
        source: MediaInfo, config: CompressionConfig, url: URL, progress: ProgressReporter, flag: CancellationFlag
    ) throws(ReelError) -> URL {
        let location = try OutputLocation.resolve(for: source.url, finalURL: url)
        do throws(ReelError) {
            let planner = CompressionPlanner(source: source, config: config, reducer: ReduceFrameEvenlySpaced())
            try AudioOnlyJob.encode(planner: planner, to: location.temporaryURL, shouldCancel: { flag.isRaised },
                                    progress: { progress.report($0) })
            if flag.isRaised { throw .cancelled }
            try location.commit()
            progress.finish()
            return location.finalURL
        } catch {
            location.abandon()
            throw location.naming(error)
        }
    }
}

/// The sound (and text subtitles) a configuration keeps of a source, encoded without the picture.
enum AudioOnlyJob {
    /// Encodes the audio and text subtitles `planner`'s settings keep, on the full
    /// compression's timeline, into `url`.
    static func encode(
        planner: CompressionPlanner, to url: URL, shouldCancel: @escaping () -> Bool, progress: @escaping (Double) -> Void
    ) throws(ReelError) {
        var planner = planner, encoding = progress
        let ranges = try planner.keptRanges()
        if let target = planner.config.loudness {
            let share = CompressionJob.loudnessShare
            let outcome = try LoudnessNormalization.decide(
                planner: planner, ranges: ranges, target: target, shouldCancel: shouldCancel, progress: { progress($0 * share) })
            planner.loudness = outcome?.adjustments ?? [:]
            encoding = { progress(share + (1 - share) * $0) }
        }
        let decision = try planner.decide(outputPath: url.path, ranges: ranges, content: nil)
        guard !decision.plan.audioTracks.isEmpty || !planner.keptSubtitleStreams.isEmpty else {
            throw .invalidConfiguration("there is no audio or subtitle to encode (the source has none, or the settings drop them)")
        }
        _ = try translatingFailures(source: planner.source.url, output: url) { () throws(MediaFailure) in
            try AudioTranscoder(plan: decision.plan, shouldCancel: shouldCancel, progress: encoding).run()
        }
    }
}
