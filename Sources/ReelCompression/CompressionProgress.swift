import ReelSupport

/// What a compression is doing, for progress displays that name it.
public enum CompressionStage: Sendable, Equatable {
    /// Working out the ranges first (a highlight reel's analysis, a target quality's shots).
    case planning
    /// Measuring the kept sound's loudness before the encode (`CompressionConfig.loudness`).
    case measuringLoudness
    /// The one encode of an ordinary compression.
    case encoding
    /// Target size: the first, fast pass that measures the video for the second.
    case firstPass
    /// Target size: the second pass, which writes the output; `attempt` counts from 1 and is
    /// higher when the size was off and the pass runs again.
    case secondPass(attempt: Int)
}

/// A compression's progress (monotonic fractions, through `ProgressReporter`) and the stage it
/// is in, reported to the caller's two handlers.
struct CompressionProgress: Sendable {
    let reporter: ProgressReporter
    let stageHandler: (@Sendable (CompressionStage) -> Void)?

    init(_ handler: (@Sendable (Double) -> Void)?, stages: (@Sendable (CompressionStage) -> Void)?) {
        self.init(reporter: ProgressReporter(handler), stageHandler: stages)
    }

    private init(reporter: ProgressReporter, stageHandler: (@Sendable (CompressionStage) -> Void)?) {
        self.reporter = reporter
        self.stageHandler = stageHandler
    }

    /// Says which stage the job has reached.
    func stage(_ stage: CompressionStage) { stageHandler?(stage) }

    /// Reports `fraction` of this range.
    func report(_ fraction: Double) { reporter.report(fraction) }

    /// Reports completion of the whole job (1.0), once.
    func finish() { reporter.finish() }

    /// The part `[from, to]` of this range, with the same stage handler.
    func subrange(from start: Double, to end: Double) -> CompressionProgress {
        CompressionProgress(reporter: reporter.subrange(from: start, to: end), stageHandler: stageHandler)
    }

    /// A closure reporting the part `[from, to]` of this range.
    func phase(from start: Double, to end: Double) -> @Sendable (Double) -> Void {
        reporter.phase(from: start, to: end)
    }
}
