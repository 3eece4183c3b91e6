import Foundation
import Synchronization

/// Compresses videos by re-encoding them through FFmpeg; modeled on JMVideoCompressor.
///
/// One instance may run several compressions at once; `cancel()` stops all of them. Cancelling
/// the calling Swift task stops that compression alone.
public final class VideoCompressor: Sendable {
    private let running = Mutex<[UUID: CancellationFlag]>([:])

    /// Creates a compressor.
    public init() {}

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
        let job = CompressionJob(source: source, config: config, reducer: frameReducer,
                                 progress: ProgressReporter(progressHandler), flag: flag)
        return try await BlockingWork.run(flag: flag) { () throws(ReelError) in try job.run() }
    }

    /// Stops every compression running on this instance; each throws `ReelError.cancelled`
    /// and leaves no output file.
    public func cancel() {
        running.withLock { flags in flags.values.forEach { $0.raise() } }
    }
}
