import Foundation

/// Runs media work and maps its failures to `ReelError` by stage: demuxing and decoding
/// failures name the source, filtering, encoding and writing failures the output.
package func translatingFailures<Value>(
    source: URL, output: URL, _ work: () throws(MediaFailure) -> Value
) throws(ReelError) -> Value {
    do {
        return try work()
    } catch {
        throw error.reelError(source: source, output: output)
    }
}

extension MediaFailure {
    /// What a demuxer's failure means to a person: FFmpeg's EPERM there is the format refusing
    /// an operation (a seek in a still image or a stream), not a file permission problem.
    static func demuxReason(_ message: String, code: Int32?) -> String {
        if code == -1 { return "its format does not allow reading it this way (not a file permission problem)" }
        if message == "Invalid data found when processing input" {
            return "not a media file FFmpeg can read, or its header is damaged or missing"
        }
        return message
    }

    /// The `ReelError` a person reads for this failure of work on `source` writing `output`.
    package func reelError(source: URL, output: URL) -> ReelError {
        switch self {
        case .cancelled:
            return .cancelled
        case .noVideoStream:
            return .missingVideoTrack(source)
        case .nothingInRange(let dataEnd, let cutShort):
            return .decodingFailed(source, operation: "decode", reason: Self.nothingInRangeText(dataEnd, cutShort: cutShort))
        case .outOfMemory(let operation):
            return .decodingFailed(source, operation: operation, reason: "out of memory")
        case .reducerMisbehaved(let message):
            return .invalidConfiguration(message)
        case .failed(let stage, let operation, let message, let code):
            switch stage {
            case .demux: return .unreadableSource(source, reason: Self.demuxReason(message, code: code))
            case .decode: return .decodingFailed(source, operation: operation, reason: message)
            case .filter, .encode: return .encodingFailed(output, operation: operation, reason: message)
            case .mux: return .muxingFailed(output, operation: operation, reason: message)
            }
        }
    }
}
