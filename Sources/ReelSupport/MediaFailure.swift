/// A failure inside media work, tagged by the code that threw it with the pipeline stage it
/// belongs to, so that `translatingFailures` can name the right file and cause without
/// guessing from operation names.
package enum MediaFailure: Error, Sendable, CustomStringConvertible {
    /// Where in the pipeline a failure happened.
    package enum Stage: Sendable, Equatable {
        /// Opening, probing, seeking or reading the source container.
        case demux
        /// Decoding the source's packets.
        case decode
        /// Filtering decoded pictures or sound (scaling, rotating, resampling, blending).
        case filter
        /// Encoding for the output.
        case encode
        /// Writing the output file.
        case mux
    }

    /// An operation of `stage` failed: FFmpeg's error code when it was an FFmpeg call, and the
    /// message a person can act on.
    case failed(Stage, operation: String, message: String, code: Int32?)
    /// The source has no video stream.
    case noVideoStream
    /// FFmpeg could not allocate a frame, packet or context.
    case outOfMemory(operation: String)
    /// A frame reducer answered against its contract (the message names it and says how).
    case reducerMisbehaved(String)
    /// The caller asked the work to stop.
    case cancelled

    package var description: String {
        switch self {
        case .failed(_, let operation, let message, _): return "\(operation): \(message)"
        case .noVideoStream: return "no video stream"
        case .outOfMemory(let operation): return "\(operation): out of memory"
        case .reducerMisbehaved(let message): return message
        case .cancelled: return "cancelled"
        }
    }
}
