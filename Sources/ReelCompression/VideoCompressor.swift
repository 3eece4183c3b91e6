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
        let validated = try Self.validated(config, for: source)
        let info = try await probe(source)
        return try await compressVideo(info, config: validated, frameReducer: frameReducer, progressHandler: progressHandler,
                                       stageHandler: stageHandler)
    }

    /// Probes `source` as a compression does, off Swift's cooperative threads. Pass the result
    /// to `compressVideo(_:config:frameReducer:progressHandler:)` or `plan` to work with its
    /// facts (the kept duration, say) without probing the file twice.
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
        try await compressVideo(source, config: try Self.validated(config, for: source.url), frameReducer: frameReducer,
                                progressHandler: progressHandler, stageHandler: stageHandler)
    }

    /// Compresses the probed `source` with settings checked once (`CompressionConfig.validated()`),
    /// as a batch does for each of its files: plans, then runs the plan, in one progress.
    public func compressVideo(
        _ source: MediaInfo,
        config: ValidatedConfig,
        frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        progressHandler: (@Sendable (Double) -> Void)? = nil,
        stageHandler: (@Sendable (CompressionStage) -> Void)? = nil
    ) async throws(ReelError) -> CompressionResult {
        try await planAndRun(source, config: config, reducer: frameReducer, purpose: .file,
                             progress: CompressionProgress(progressHandler, stages: stageHandler))
    }

    /// Plans the compression of `source` without encoding anything: checks the settings and the
    /// output, probes the file, runs a planned trim (a highlight reel's analysis) and fixes the
    /// kept ranges. Show it (a dry run), or run it with `compress(_:progressHandler:stageHandler:)`.
    /// `progressHandler` follows the planning alone.
    public func plan(
        _ source: URL,
        config: CompressionConfig,
        frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> CompressionPlan {
        let validated = try Self.validated(config, for: source)
        return try await plan(try await probe(source), config: validated, frameReducer: frameReducer,
                              progressHandler: progressHandler)
    }

    /// Plans the compression of the probed `source` with settings checked once.
    public func plan(
        _ source: MediaInfo,
        config: ValidatedConfig,
        frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> CompressionPlan {
        do throws(ReelError) {
            return try await tracked { flag throws(ReelError) in
                try await CompressionPlan.make(source, config: config, reducer: frameReducer, purpose: .file,
                                               progress: CompressionProgress(progressHandler, stages: nil), flag: flag)
            }
        } catch {
            throw error.naming(source: source.url)
        }
    }

    /// Runs `plan` (from `plan(_:config:frameReducer:progressHandler:)`): encodes, or copies,
    /// its kept ranges into its output. The result's `processingTime` includes the planning.
    public func compress(
        _ plan: CompressionPlan,
        progressHandler: (@Sendable (Double) -> Void)? = nil,
        stageHandler: (@Sendable (CompressionStage) -> Void)? = nil
    ) async throws(ReelError) -> CompressionResult {
        do throws(ReelError) {
            return try await tracked { flag throws(ReelError) in
                try await run(plan, progress: CompressionProgress(progressHandler, stages: stageHandler), flag: flag)
            }
        } catch {
            throw error.naming(source: plan.source.url)
        }
    }

    /// Compresses one chunk of a chunked encode (`ChunkPlan`): as `compressVideo`, except that
    /// a target size never changes the picture or frame rate the plan fixed.
    package func compressChunk(
        _ source: MediaInfo, config: CompressionConfig, fadesIn: Bool = false, fadesOut: Bool = false,
        progressHandler: (@Sendable (Double) -> Void)?
    ) async throws(ReelError) -> CompressionResult {
        try await planAndRun(source, config: try Self.validated(config, for: source.url), reducer: ReduceFrameEvenlySpaced(),
                             purpose: .chunk(fadesIn: fadesIn, fadesOut: fadesOut), progress: CompressionProgress(progressHandler, stages: nil))
    }

    /// Plans `source` and runs the plan under one cancellation flag (a `cancel()` between the
    /// two is not missed), the planning in its share of `progress`.
    private func planAndRun(
        _ source: MediaInfo, config: ValidatedConfig, reducer: any VideoFrameReducer, purpose: CompressionPlan.Purpose,
        progress: CompressionProgress
    ) async throws(ReelError) -> CompressionResult {
        let share = config.planningProgressShare
        do throws(ReelError) {
            return try await tracked { flag throws(ReelError) in
                let plan = try await CompressionPlan.make(
                    source, config: config, reducer: reducer, purpose: purpose,
                    progress: progress.subrange(from: 0, to: share), flag: flag)
                return try await run(plan, progress: progress.subrange(from: share, to: 1), flag: flag)
            }
        } catch {
            throw error.naming(source: source.url)
        }
    }

    /// `config` checked, its error naming `source`.
    private static func validated(_ config: CompressionConfig, for source: URL) throws(ReelError) -> ValidatedConfig {
        do throws(ReelError) {
            return try config.validated()
        } catch {
            throw error.naming(source: source)
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

    /// Runs a plan's job off the cooperative threads.
    private func run(_ plan: CompressionPlan, progress: CompressionProgress, flag: CancellationFlag) async throws(ReelError) -> CompressionResult {
        let job = CompressionJob(plan: plan, progress: progress, flag: flag)
        return try await BlockingWork.run(flag: flag) { () throws(ReelError) in try job.run() }
    }

    /// Stops every compression running on this instance; each throws `ReelError.cancelled`
    /// and leaves no output file.
    public func cancel() {
        running.withLock { flags in flags.values.forEach { $0.raise() } }
    }
}
