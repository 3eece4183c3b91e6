import Dispatch

/// Runs blocking test work (an ffmpeg process, a face search over many pictures) on a Dispatch
/// thread: waiting on Swift's two cooperative threads would starve every other suite.
@discardableResult
func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
    }
}
