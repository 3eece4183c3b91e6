import Foundation

/// Every failure ReelKit reports; each message names the file and the cause.
public enum ReelError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The source URL is not a file URL or the file does not exist.
    case invalidSourceURL(URL)
    /// The file exists but is empty, unreadable, or not a media file FFmpeg can open.
    case unreadableSource(URL, reason: String)
    /// The source has no video stream.
    case missingVideoTrack(URL)
    /// The output location cannot be used (directory missing and not creatable, not writable...).
    case invalidOutputPath(URL, reason: String)
    /// The output would overwrite the source.
    case outputEqualsSource(URL)
    /// The requested codec has no encoder in this FFmpeg build.
    case codecNotSupported(String)
    /// The trim times are outside the source or start is not before end.
    case invalidTrimTimes(start: Double?, end: Double?, duration: Double)
    /// A configuration value is out of range.
    case invalidConfiguration(String)
    /// A preset name or preset file that cannot be used.
    case invalidPreset(String)
    /// Decoding the source failed: the FFmpeg operation and its message.
    case decodingFailed(URL, operation: String, reason: String)
    /// Encoding failed: the FFmpeg operation and its message.
    case encodingFailed(URL, operation: String, reason: String)
    /// Writing the output container failed: the FFmpeg operation and its message.
    case muxingFailed(URL, operation: String, reason: String)
    /// The operation was cancelled by `cancel()` or by cancelling the task.
    case cancelled

    public var description: String {
        switch self {
        case .invalidSourceURL(let url):
            return url.isFileURL
                ? "\(url.path): no such file"
                : "\(url.absoluteString): not a file URL"
        case .unreadableSource(let url, let reason):
            return "\(url.path): cannot read as media: \(reason)"
        case .missingVideoTrack(let url):
            return "\(url.path): no video stream"
        case .invalidOutputPath(let url, let reason):
            return "\(url.path): invalid output path: \(reason)"
        case .outputEqualsSource(let url):
            return "\(url.path): output would overwrite the source"
        case .codecNotSupported(let codec):
            return "codec not supported by this FFmpeg build: \(codec)"
        case .invalidTrimTimes(let start, let end, let duration):
            let startText = start.map { String(format: "%.3f s", $0) } ?? "start"
            let endText = end.map { String(format: "%.3f s", $0) } ?? "end"
            return "invalid trim range \(startText) to \(endText) for a "
                + String(format: "%.3f s", duration) + " video"
        case .invalidConfiguration(let reason):
            return "invalid configuration: \(reason)"
        case .invalidPreset(let reason):
            return "invalid preset: \(reason)"
        case .decodingFailed(let url, let operation, let reason):
            return "\(url.path): decoding failed in \(operation): \(reason)"
        case .encodingFailed(let url, let operation, let reason):
            return "\(url.path): encoding failed in \(operation): \(reason)"
        case .muxingFailed(let url, let operation, let reason):
            return "\(url.path): writing failed in \(operation): \(reason)"
        case .cancelled:
            return "cancelled"
        }
    }

    public var errorDescription: String? { description }
}
