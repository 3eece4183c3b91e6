import Synchronization

/// A thread-safe "stop now" flag polled by blocking work; async work can also register a
/// callback that runs when the flag is raised.
package final class CancellationFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    private let callbacks = Mutex<[@Sendable () -> Void]>([])

    /// A flag that is not raised.
    package init() {}

    package func raise() {
        raised.store(true, ordering: .relaxed)
        let pending = callbacks.withLock { list -> [@Sendable () -> Void] in
            defer { list.removeAll() }
            return list
        }
        pending.forEach { $0() }
    }

    package var isRaised: Bool { raised.load(ordering: .relaxed) }

    /// Runs `callback` when the flag is raised (at once if it already is).
    package func onRaise(_ callback: @escaping @Sendable () -> Void) {
        let runNow = callbacks.withLock { list -> Bool in
            if isRaised { return true }
            list.append(callback)
            return false
        }
        if runNow { callback() }
    }
}
