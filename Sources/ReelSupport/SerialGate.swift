import Foundation
import Synchronization

/// A first-come, first-served async lock: analyses run one at a time, in the order they
/// arrived. A waiter whose task is cancelled leaves the line at once.
package final class SerialGate: Sendable {
    private struct State {
        var busy = false
        var waiting: [(id: UUID, continuation: CheckedContinuation<Bool, Never>)] = []
        var cancelledEarly: Set<UUID> = []
    }

    private let state = Mutex(State())

    /// An open gate.
    package init() {}

    /// Waits for the turn; `false` when the task was cancelled while waiting.
    package func enter() async -> Bool {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow: Bool? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return false }
                    if !state.busy {
                        state.busy = true
                        return true
                    }
                    state.waiting.append((id, continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
                if let position = state.waiting.firstIndex(where: { $0.id == id }) {
                    return state.waiting.remove(at: position).continuation
                }
                state.cancelledEarly.insert(id)
                return nil
            }
            waiter?.resume(returning: false)
        }
    }

    /// How many callers wait for their turn.
    package var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Hands the turn to the next waiter, or frees the gate.
    package func leave() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
