import Foundation
import ReelFrameReduction
import ReelMedia
import ReelSupport
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

    /// Compresses `source` with explicit settings. `stageHandler` hears which stage is running
    /// (the two passes of a target size, say), for displays that name it.
    public func compressVideo(
        _ source: URL,
        config: CompressionConfig,
        frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        progressHandler: (@Sendable (Double) -> Void)? = nil,
        stageHandler: (@Sendable (CompressionStage) -> Void)? = nil
    ) async throws(ReelError) -> CompressionResult {
        do throws(ReelError) {
            try config.validate()
        } catch {
            throw error.naming(source: source)
        }
        let info = try await probe(source)
        return try await compressVideo(info, config: config, frameReducer: frameReducer, progressHandler: progressHandler,
                                       stageHandler: stageHandler)
    }

    /// Probes `source` as a compression does, off Swift's cooperative threads. Pass the result
    /// to `compressVideo(_:config:frameReducer:progressHandler:)` to plan with its facts (the
    /// kept duration, say) without probing the file twice.
    public func probe(_ source: URL) async throws(ReelError) -> MediaInfo {
        try await tracked { flag throws(ReelError) in
            try await BlockingWork.run(flag: flag) { () throws(ReelError) in try MediaInfo.probe(source) }
        }
    }

    /// Compresses the source `probe(_:)` described, with explicit settings; every stage reads
    /// the probed facts instead of probing the file again. `stageHandler` hears which stage is
    /// running.
    public func compressVideo(
        _ source: MediaInfo,
        config: CompressionConfig,
        frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        progressHandler: (@Sendable (Double) -> Void)? = nil,
        stageHandler: (@Sendable (CompressionStage) -> Void)? = nil
    ) async throws(ReelError) -> CompressionResult {
        do throws(ReelError) {
            try config.validate()
            return try await tracked { flag throws(ReelError) in
                try await run(source, config: config, reducer: frameReducer, flag: flag, progressHandler: progressHandler,
                              stageHandler: stageHandler)
            }
        } catch {
            throw error.naming(source: source.url)
        }
    }

    /// Compresses one chunk of a chunked encode (`ChunkPlan`): as `compressVideo`, except that
    /// a target size never changes the picture or frame rate the plan fixed.
    package func compressChunk(
        _ source: MediaInfo, config: CompressionConfig, progressHandler: (@Sendable (Double) -> Void)?
    ) async throws(ReelError) -> CompressionResult {
        do throws(ReelError) {
            try config.validate()
            return try await tracked { flag throws(ReelError) in
                try await run(source, config: config, reducer: ReduceFrameEvenlySpaced(), flag: flag,
                              progressHandler: progressHandler, stageHandler: nil, isChunk: true)
            }
        } catch {
            throw error.naming(source: source.url)
        }
    }

    /// Runs `work` with a cancellation flag that `cancel()` raises while it runs.
    private func tracked<Value: Sendable>(
        _ work: (CancellationFlag) async throws(ReelError) -> Value
    ) async throws(ReelError) -> Value {
        let flag = CancellationFlag()
        let id = UUID()
        running.withLock { $0[id] = flag }
        defer { _ = running.withLock { $0.removeValue(forKey: id) } }
        return try await work(flag)
    }

    private func run(
        _ info: MediaInfo, config: CompressionConfig, reducer: some VideoFrameReducer, flag: CancellationFlag,
        progressHandler: (@Sendable (Double) -> Void)?, stageHandler: (@Sendable (CompressionStage) -> Void)?,
        isChunk: Bool = false
    ) async throws(ReelError) -> CompressionResult {
        // Settings this FFmpeg cannot encode are refused before any work (a reel's analysis).
        try CompressionPlanner(source: info, config: config, reducer: reducer).checkEncoders()
        let reporter = ProgressReporter(progressHandler, stages: stageHandler)
        var config = config
        var encodingProgress = reporter
        if case .planned(let planner) = config.trim {
            // Planning first (an analysis, say), in its share of the progress.
            let share = min(max(planner.progressShare, 0), 1)
            reporter.stage(.planning)
            encodingProgress = reporter.subrange(from: share, to: 1)
            config.trim = .ranges(try await Self.plan(
                planner, source: info, flag: flag, progress: reporter.subrange(from: 0, to: share)))
        }
        var job = CompressionJob(source: info, config: config, reducer: reducer,
                                 progress: encodingProgress, flag: flag)
        job.isChunk = isChunk
        if let shots = config.targetQuality?.shots {
            reporter.stage(.planning)
            job.shotStarts = try await shots.shotStarts(of: info)
            if flag.isRaised { throw .cancelled }
        }
        let planned = job
        return try await BlockingWork.run(flag: flag) { () throws(ReelError) in try planned.run() }
    }

    /// Runs `planner` for `source`; `cancel()` (through `flag`) or cancelling the task stops it.
    private static func plan(
        _ planner: any TrimPlanner, source: MediaInfo, flag: CancellationFlag, progress: ProgressReporter
    ) async throws(ReelError) -> [TimeRange] {
        let task = Task { () async throws(ReelError) -> [TimeRange] in
            try await planner.ranges(of: source) { progress.report($0) }
        }
        flag.onRaise { task.cancel() }
        let outcome = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        if flag.isRaised { throw .cancelled }
        switch outcome {
        case .success(let ranges): return ranges
        case .failure(let error as ReelError): throw error
        case .failure: throw .cancelled
        }
    }

    /// Stops every compression running on this instance; each throws `ReelError.cancelled`
    /// and leaves no output file.
    public func cancel() {
        running.withLock { flags in flags.values.forEach { $0.raise() } }
    }
}
