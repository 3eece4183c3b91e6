import Synchronization

/// Turns raw progress into what users get: monotonic, at most about 100 calls, 1.0 exactly once.
/// A reporter can be split into sub-ranges for the phases of a job (analysis, then encoding);
/// they share one handler and one monotonic state.
package final class ProgressReporter: Sendable {
    private final class SharedState: Sendable {
        let last = Mutex<Double>(-1)
    }

    private let handler: (@Sendable (Double) -> Void)?
    private let state: SharedState
    private let lower: Double
    private let upper: Double

    package init(_ handler: (@Sendable (Double) -> Void)?) {
        self.handler = handler
        state = SharedState()
        lower = 0
        upper = 1
    }

    private init(handler: (@Sendable (Double) -> Void)?, state: SharedState, lower: Double, upper: Double) {
        self.handler = handler
        self.state = state
        self.lower = lower
        self.upper = upper
    }

    /// A reporter for `[from, to]` of this one's range (fractions of it).
    package func subrange(from start: Double, to end: Double) -> ProgressReporter {
        let span = upper - lower
        return ProgressReporter(handler: handler, state: state,
                                lower: lower + span * start, upper: lower + span * end)
    }

    /// Reports `fraction` of this reporter's range if the whole moved at least 1% since the last report.
    ///
    /// The handler is called while the state is locked: decided outside it, two threads' values
    /// (the analysis's decode workers report side by side) could reach the handler in the
    /// opposite order and the bar would step back. It is called about 100 times in a job.
    package func report(_ fraction: Double) {
        guard let handler else { return }
        let value = min(lower + (upper - lower) * min(max(fraction, 0), 1), 0.999)
        state.last.withLock { previous in
            guard value >= previous + 0.01 || previous < 0 else { return }
            previous = value
            handler(value)
        }
    }

    /// Reports completion of the whole job (1.0), once.
    package func finish() {
        guard let handler else { return }
        state.last.withLock { previous in
            guard previous < 1 else { return }
            previous = 1
            handler(1)
        }
    }

    /// A closure reporting the sub-range `[from, to]` of this reporter's range.
    package func phase(from start: Double, to end: Double) -> @Sendable (Double) -> Void {
        let part = subrange(from: start, to: end)
        return { part.report($0) }
    }
}
