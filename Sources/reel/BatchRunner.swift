import Foundation
import ReelKit

/// Compresses the planned files, at most `jobs` at a time, and keeps going when one fails.
///
/// Cancelling the calling task (as the signal handler does) stops the running compressions,
/// which then leave no output, and marks the files not yet started as cancelled.
struct BatchRunner: Sendable {
    /// The compressor shared by all files, so one `cancel()` stops them all.
    let compressor: VideoCompressor
    /// The settings, without an output location (each file gets its own).
    let config: CompressionConfig
    /// How frames are dropped.
    let reducer: any VideoFrameReducer
    /// The most files compressed at once.
    let jobs: Int
    /// Where progress and per-file errors go.
    let display: ProgressDisplay

    /// Runs the plan and returns one outcome per planned file, in plan order.
    func run(_ plan: [PlannedFile]) async -> [FileOutcome] {
        var outcomes: [Int: FileOutcome] = [:]
        var pending: [Int] = []
        for (slot, file) in plan.enumerated() {
            if let outcome = FileOutcome.preliminary(file, dryRun: false) {
                outcomes[slot] = outcome
                if outcome.status == .failed, let message = outcome.message {
                    display.message("reel: " + message)
                }
            } else {
                pending.append(slot)
            }
        }
        await withTaskGroup(of: (Int, FileOutcome).self) { group in
            var running = 0
            for slot in pending {
                if running >= max(jobs, 1), let (done, outcome) = await group.next() {
                    outcomes[done] = outcome
                    running -= 1
                }
                if Task.isCancelled {
                    outcomes[slot] = FileOutcome(
                        file: plan[slot], status: .cancelled, analytics: nil, message: nil)
                    continue
                }
                group.addTask { (slot, await compress(plan[slot], slot: slot)) }
                running += 1
            }
            for await (done, outcome) in group {
                outcomes[done] = outcome
            }
        }
        return plan.indices.map { slot in
            outcomes[slot] ?? FileOutcome(
                file: plan[slot], status: .cancelled, analytics: nil, message: nil)
        }
    }

    /// Compresses one file, reporting progress and turning errors into an outcome.
    private func compress(_ file: PlannedFile, slot: Int) async -> FileOutcome {
        display.begin(slot: slot, name: file.input.display, duration: mediaDuration(of: file))
        var settings = config
        settings.outputURL = file.output
        settings.outputDirectory = nil
        let display = self.display
        do {
            let result = try await compressor.compressVideo(
                file.input.url, config: settings, frameReducer: reducer
            ) { fraction in
                display.update(slot: slot, fraction: fraction)
            }
            display.finish(slot: slot, status: .compressed)
            return FileOutcome(
                file: file, status: .compressed, analytics: result.analytics, message: nil)
        } catch .cancelled {
            display.finish(slot: slot, status: .cancelled)
            return FileOutcome(file: file, status: .cancelled, analytics: nil, message: nil)
        } catch {
            let message = ErrorText.line(for: error, file: file)
            display.finish(slot: slot, status: .failed)
            display.message("reel: " + message)
            return FileOutcome(file: file, status: .failed, analytics: nil, message: message)
        }
    }

    /// The seconds of media the compression will encode (the trimmed part), for speed and
    /// ETA; nil when the source cannot be probed (the compression then reports why).
    private func mediaDuration(of file: PlannedFile) -> Double? {
        guard let info = try? MediaInfo.probe(file.input.url), info.duration > 0 else {
            return nil
        }
        switch config.trim {
        case .ranges(let ranges):
            return ranges.map { min($0.end.seconds, info.duration) - $0.start.seconds }.reduce(0, +)
        case .planned(let planner):
            return planner.maximumDuration.map { min($0, info.duration) }
        case .whole:
            let start = config.trimStartTime?.seconds ?? 0
            let end = min(config.trimEndTime?.seconds ?? info.duration, info.duration)
            return max(end - start, 0)
        }
    }
}
