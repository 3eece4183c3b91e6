import ReelKit

/// How one input ended.
enum FileStatus: String, Sendable {
    /// Compressed into its output.
    case compressed
    /// Left alone: its output was already complete.
    case skipped
    /// Could not be compressed; `FileOutcome.message` says why.
    case failed
    /// Stopped, or never started, because the run was interrupted.
    case cancelled
    /// Would be compressed (`--dry-run`).
    case planned
}

/// What happened to one input.
struct FileOutcome: Sendable {
    /// The input, its output and the plan.
    let file: PlannedFile
    /// How it ended.
    let status: FileStatus
    /// The measurements, when it was compressed.
    let analytics: CompressionAnalytics?
    /// The failure's cause or the reason for skipping; nil otherwise.
    let message: String?
    /// The source ranges a dry run would keep (from the library's plan).
    var plannedRanges: [TimeRange]? = nil
    /// The joins a dry run would dissolve (numbered by the range before them) and for how long.
    var plannedDissolves: (joins: [Int], seconds: Double)? = nil
    /// The camera path a dry run planned, when the output is reframed.
    var plannedCameraPath: CameraPath? = nil
    /// The analysis a highlight reel was cut from (its plan ran it), for the report.
    var analysis: VideoAnalysis? = nil
    /// What a dead-air cut found (planned or done): the pauses cut and the parts kept.
    var deadAir: DeadAirReport? = nil

    /// The outcome a plan has before anything runs: skipped, failed, or (`dryRun`) planned.
    static func preliminary(_ file: PlannedFile, dryRun: Bool) -> FileOutcome? {
        switch file.action {
        case .skip(let reason):
            return FileOutcome(file: file, status: .skipped, analytics: nil, message: reason)
        case .fail(let cause):
            return FileOutcome(file: file, status: .failed, analytics: nil, message: cause)
        case .compressNeedingOverwrite(let note):
            return dryRun ? FileOutcome(file: file, status: .planned, analytics: nil, message: note)
                : FileOutcome(file: file, status: .failed, analytics: nil, message: note)
        case .compress:
            guard dryRun else { return nil }
            return FileOutcome(file: file, status: .planned, analytics: nil, message: nil)
        }
    }
}

/// One-line error messages of the form `FILE: cause` (printed as `reel: FILE: cause`).
enum ErrorText {
    /// The message for `error` while compressing `file`, naming the file as the user typed it.
    static func line(for error: ReelError, file: PlannedFile) -> String {
        line(for: error, input: file.input, extraPaths: [(file.output.path, file.outputDisplay)])
    }

    /// The message for `error` about `input`; `extraPaths` are other (absolute, shown) pairs.
    /// Errors about a known file name it as typed; errors naming no file get the input's name.
    static func line(
        for error: ReelError, input: InputItem, extraPaths: [(String, String)] = []
    ) -> String {
        guard let url = error.fileURL else { return "\(input.display): \(error.cause)" }
        let shown = ([(input.url.path, input.display)] + extraPaths).first { $0.0 == url.path }?.1 ?? url.path
        return "\(shown): \(error.cause)"
    }
}
