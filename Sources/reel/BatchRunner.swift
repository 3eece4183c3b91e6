import Foundation
import ReelKit

/// Compresses the planned files, at most `jobs` at a time, and keeps going when one fails.
///
/// Cancelling the calling task (as the signal handler does) stops the running compressions,
/// which then leave no output, and marks the files not yet started as cancelled.
struct BatchRunner: Sendable {
    /// The compressor shared by all files, so one `cancel()` stops them all.
    let compressor: VideoCompressor
    /// The settings, checked once for the batch, without an output location (each file gets
    /// its own).
    let config: ValidatedConfig
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

    /// Compresses one file, reporting progress and turning errors into an outcome: the file is
    /// probed once, planned (a reel's analysis runs here, in its share of the progress; then
    /// the display knows the output's duration) and the plan run.
    private func compress(_ file: PlannedFile, slot: Int) async -> FileOutcome {
        let display = self.display
        let share = config.planningProgressShare
        do throws(ReelError) {
            display.begin(slot: slot, name: file.input.display, duration: nil)
            let source = try await compressor.probe(file.input.url)
            if share > 0 { display.update(slot: slot, stage: .planning) }
            let plan = try await compressor.plan(
                source, config: config.writing(to: file.output), frameReducer: reducer,
                progressHandler: { fraction in display.update(slot: slot, fraction: fraction * share) })
            display.update(slot: slot, duration: plan.keptDuration)
            let result = try await compressor.compress(
                plan, progressHandler: { fraction in display.update(slot: slot, fraction: share + (1 - share) * fraction) },
                stageHandler: { stage in display.update(slot: slot, stage: stage) })
            display.finish(slot: slot, status: .compressed)
            var outcome = FileOutcome(file: file, status: .compressed, analytics: result.analytics, message: nil)
            outcome.analysis = result.analysis
            outcome.deadAir = result.deadAir
            return outcome
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
}
