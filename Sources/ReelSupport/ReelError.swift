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
    /// A list of ranges to keep that cannot be used (negative, beyond the end, empty,
    /// overlapping); the reason names the range.
    case invalidRanges(String)
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
    /// A lossless copy (stream copy) of the source gave video that does not decode as the
    /// source's does; nothing was written. The reason says what the check found.
    case streamCopyFailed(URL, reason: String)
    /// The face models are not where ReelKit looks; the reason says where it looked and how
    /// to get them.
    case faceModelsMissing(String)
    /// A face index (the `FaceGroupAnalyzer`'s database) cannot be opened, read or written.
    case faceIndexFailed(URL, reason: String)
    /// The operation was cancelled by `cancel()` or by cancelling the task.
    case cancelled

    /// The file the error is about, when there is one.
    public var fileURL: URL? {
        switch self {
        case .invalidSourceURL(let url), .unreadableSource(let url, _), .missingVideoTrack(let url),
             .invalidOutputPath(let url, _), .outputEqualsSource(let url), .decodingFailed(let url, _, _),
             .encodingFailed(let url, _, _), .muxingFailed(let url, _, _), .streamCopyFailed(let url, _),
             .faceIndexFailed(let url, _):
            return url
        case .codecNotSupported, .invalidTrimTimes, .invalidRanges, .invalidConfiguration, .invalidPreset, .cancelled,
             .faceModelsMissing:
            return nil
        }
    }

    /// The cause alone, without the file name, e.g. `no video stream`.
    public var cause: String {
        switch self {
        case .invalidSourceURL(let url):
            return url.isFileURL ? "no such file" : "not a file URL"
        case .unreadableSource(_, let reason):
            return "cannot read as media: \(reason)"
        case .missingVideoTrack:
            return "no video stream"
        case .invalidOutputPath(_, let reason):
            return "invalid output path: \(reason)"
        case .outputEqualsSource:
            return "output would overwrite the source"
        case .codecNotSupported(let codec):
            return "codec not supported by this FFmpeg build: \(codec)"
        case .invalidTrimTimes(let start, let end, let duration):
            let startText = start.map { String(format: "%.3f s", $0) } ?? "start"
            let endText = end.map { String(format: "%.3f s", $0) } ?? "end"
            return "invalid trim range \(startText) to \(endText) for a "
                + String(format: "%.3f s", duration) + " video"
        case .invalidRanges(let reason):
            return "invalid ranges: \(reason)"
        case .invalidConfiguration(let reason):
            return "invalid configuration: \(reason)"
        case .invalidPreset(let reason):
            return "invalid preset: \(reason)"
        case .decodingFailed(_, let operation, let reason):
            return "decoding failed in \(operation): \(reason)"
        case .encodingFailed(_, let operation, let reason):
            return "encoding failed in \(operation): \(reason)"
        case .muxingFailed(_, let operation, let reason):
            return "writing failed in \(operation): \(reason)"
        case .streamCopyFailed(_, let reason):
            return "lossless copy failed: \(reason)"
        case .faceModelsMissing(let reason):
            return "face models not found: \(reason)"
        case .faceIndexFailed(_, let reason):
            return "face index failed: \(reason)"
        case .cancelled:
            return "cancelled"
        }
    }

    /// `FILE: cause`, or the cause alone when no file is involved.
    public var description: String {
        guard let url = fileURL else { return cause }
        return "\(url.isFileURL ? url.path : url.absoluteString): \(cause)"
    }

    public var errorDescription: String? { description }
}
