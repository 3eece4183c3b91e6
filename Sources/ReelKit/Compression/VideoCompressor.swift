import Foundation
import Synchronization

/// Compresses videos by re-encoding them through FFmpeg; modeled on JMVideoCompressor.
///
/// One instance may run several compressions at once; `cancel()` stops all of them. Cancelling
/// the calling Swift task stops that compression alone.
public final class VideoCompressor: Sendable {
    private let running = Mutex<[UUID: CancellationFlag]>([:])
    private let analyzer: VideoAnalyzer

    /// Creates a compressor; highlight reels use `analyzer` (default: the shared one).
    public init(analyzer: VideoAnalyzer = .shared) {
        self.analyzer = analyzer
    }

    /// Compresses `source` with a preset.
    public func compressVideo(
        _ source: URL,
        quality: VideoQuality = .mediumQuality,
        frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        outputDirectory: URL? = nil,
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> CompressionResult {
        var config = quality.defaultConfig
        config.outputDirectory = outputDirectory
        return try await compressVideo(source, config: config, frameReducer: frameReducer,
                                       progressHandler: progressHandler)
    }

    /// Compresses `source` with explicit settings.
    public func compressVideo(
        _ source: URL,
        config: CompressionConfig,
        frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> CompressionResult {
        let flag = CancellationFlag()
        let id = UUID()
        running.withLock { $0[id] = flag }
        defer { _ = running.withLock { $0.removeValue(forKey: id) } }
        let reporter = ProgressReporter(progressHandler)
        var config = config
        var encodingProgress = reporter
        if case .highlights(let options) = config.trim {
            // Analysis first (a third of the progress), unless an analysis was passed in.
            let analysisShare = options.analysis == nil ? 0.3 : 0
            encodingProgress = reporter.subrange(from: analysisShare, to: 1)
            config.trim = .ranges(try await HighlightReelResolver(
                source: source, options: options, analyzer: analyzer, flag: flag,
                progress: reporter.subrange(from: 0, to: analysisShare)
            ).ranges())
        }
        let job = CompressionJob(source: source, config: config, reducer: frameReducer,
                                 progress: encodingProgress, flag: flag)
        return try await BlockingWork.run(flag: flag) { () throws(ReelError) in try job.run() }
    }

    /// Stops every compression running on this instance; each throws `ReelError.cancelled`
    /// and leaves no output file.
    public func cancel() {
        running.withLock { flags in flags.values.forEach { $0.raise() } }
    }
}
