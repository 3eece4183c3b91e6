import Dispatch

/// Runs blocking FFmpeg work on a Dispatch thread, off Swift's small cooperative pool, and
/// raises `flag` when the calling task is cancelled.
package enum BlockingWork {
    package static func run<Value: Sendable>(
        flag: CancellationFlag,
        _ work: @escaping @Sendable () throws(ReelError) -> Value
    ) async throws(ReelError) -> Value {
        let result: Result<Value, ReelError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    do throws(ReelError) {
                        continuation.resume(returning: .success(try work()))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            flag.raise()
        }
        return try result.get()
    }
}
