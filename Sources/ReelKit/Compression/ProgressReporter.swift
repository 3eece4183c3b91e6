import Synchronization

/// Turns raw progress into what users get: monotonic, at most about 100 calls, 1.0 exactly once.
final class ProgressReporter: Sendable {
    private let handler: (@Sendable (Double) -> Void)?
    private let last = Mutex<Double>(-1)

    init(_ handler: (@Sendable (Double) -> Void)?) {
        self.handler = handler
    }

    /// Reports `fraction` of the whole job if it moved at least 1% since the last report.
    func report(_ fraction: Double) {
        guard let handler else { return }
        let value = min(max(fraction, 0), 0.999)
        let shouldSend = last.withLock { previous -> Bool in
            guard value >= previous + 0.01 || previous < 0 else { return false }
            previous = value
            return true
        }
        if shouldSend { handler(value) }
    }

    /// Reports completion (1.0), once.
    func finish() {
        guard let handler else { return }
        let shouldSend = last.withLock { previous -> Bool in
            guard previous < 1 else { return false }
            previous = 1
            return true
        }
        if shouldSend { handler(1) }
    }

    /// A reporter for the sub-range `[from, to]` of the whole job.
    func phase(from start: Double, to end: Double) -> @Sendable (Double) -> Void {
        { [self] fraction in report(start + (end - start) * min(max(fraction, 0), 1)) }
    }
}
