import Foundation

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
    /// No picture of the requested range could be decoded. `dataEnd`: where the data read
    /// ended (seconds from the first picture), when reading met the file's end before the
    /// range; `cutShort` when that is well before the end the file's header gives.
    case nothingInRange(dataEnd: Double?, cutShort: Bool)
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
        case .nothingInRange(let dataEnd, let cutShort): return "decode: " + Self.nothingInRangeText(dataEnd, cutShort: cutShort)
        case .outOfMemory(let operation): return "\(operation): out of memory"
        case .reducerMisbehaved(let message): return message
        case .cancelled: return "cancelled"
        }
    }

    /// Why nothing of a range was decoded, for a person.
    package static func nothingInRangeText(_ dataEnd: Double?, cutShort: Bool) -> String {
        guard let dataEnd else { return "no video frame could be decoded in the requested range" }
        return cutShort
            ? String(format: "the requested range lies past where the file's data ends (%.2f s; the file is cut short)", dataEnd)
            : String(format: "the requested range lies past the end of the video (%.2f s)", dataEnd)
    }
}
