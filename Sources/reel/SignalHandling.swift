import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT (Ctrl-C) and SIGTERM into a clean cancellation instead of an abrupt exit.
///
/// The signals are ignored at the process level and delivered through Dispatch sources, so
/// the handler runs as ordinary code and may cancel compressions, which then delete their
/// temporary files.
final class SignalHandling: Sendable {
    /// The signals handled.
    static let handled: [Int32] = [SIGINT, SIGTERM]

    private let caught = Atomic<Int32>(0)
    private let sources = Mutex<[any DispatchSourceSignal]>([])
    private let queue = DispatchQueue(label: "reel.signals")
    private let work = Mutex<Task<Int32, Never>?>(nil)

    /// Creates a handler that does nothing until `install` is called.
    init() {}

    /// The first signal received, if any.
    var receivedSignal: Int32? {
        let value = caught.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Runs `operation` in a task that a signal cancels, after calling `onSignal` (which
    /// should cancel work the task cannot see, such as a `VideoCompressor`).
    func run(
        onSignal: @escaping @Sendable () -> Void,
        _ operation: @escaping @Sendable () async -> Int32
    ) async -> Int32 {
        install { [self] in
            onSignal()
            work.withLock { $0?.cancel() }
        }
        let task = Task { await operation() }
        work.withLock { $0 = task }
        if receivedSignal != nil { task.cancel() }
        return await task.value
    }

    /// Starts handling the signals; `onSignal` runs (off the main thread) for each one.
    ///
    /// Returns once Dispatch has registered every source: between ignoring a signal and the
    /// registration (which happens on Dispatch's own thread) a signal would be lost, and a
    /// command that opened its file within that moment would not see a SIGTERM sent then.
    func install(onSignal: @escaping @Sendable () -> Void) {
        let registered = DispatchSemaphore(value: 0)
        for number in Self.handled {
            signal(number, SIG_IGN)
            sources.withLock { sources in
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [self] in
                    _ = caught.compareExchange(
                        expected: 0, desired: number, ordering: .acquiringAndReleasing)
                    onSignal()
                }
                source.setRegistrationHandler { registered.signal() }
                source.resume()
                sources.append(source)
            }
        }
        for _ in Self.handled { _ = registered.wait(timeout: .now() + 2) }
    }

    /// The name of `number` for messages, e.g. `SIGINT`.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(number)"
        }
    }
}
