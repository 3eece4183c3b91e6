import Synchronization

/// A thread-safe "stop now" flag polled by blocking work.
final class CancellationFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .relaxed) }

    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
