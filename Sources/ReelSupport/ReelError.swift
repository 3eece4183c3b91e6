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
    /// The requested codec has no encoder in this FFmpeg build (`file`: the source it was for).
    case codecNotSupported(String, file: URL? = nil)
    /// The trim times are outside the source or start is not before end.
    case invalidTrimTimes(start: Double?, end: Double?, duration: Double, file: URL? = nil)
    /// A list of ranges to keep that cannot be used (negative, beyond the end, empty,
    /// overlapping); the reason names the range.
    case invalidRanges(String)
    /// A trim that would keep nothing of the source (no highlight at the level asked, no sound
    /// above the silence level, a person never on screen); the reason says what to change.
    case nothingToKeep(URL, reason: String)
    /// A configuration value is out of range (`file`: the source it was for, when known).
    case invalidConfiguration(String, file: URL? = nil)
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
    /// A chunked encode cannot be assembled: chunks (numbers, or `audio`) are missing or not
    /// what the plan asks for; `rerun` lists the jobs to run again, `problems` says why.
    case chunksNotReady(URL, rerun: [String], problems: [String])
    /// The operation was cancelled by `cancel()` or by cancelling the task.
    case cancelled

    /// The file the error is about, when there is one.
    public var fileURL: URL? {
        switch self {
        case .invalidSourceURL(let url), .unreadableSource(let url, _), .missingVideoTrack(let url),
             .invalidOutputPath(let url, _), .outputEqualsSource(let url), .decodingFailed(let url, _, _),
             .encodingFailed(let url, _, _), .muxingFailed(let url, _, _), .streamCopyFailed(let url, _),
             .faceIndexFailed(let url, _), .chunksNotReady(let url, _, _), .nothingToKeep(let url, _):
            return url
        case .codecNotSupported(_, let file), .invalidTrimTimes(_, _, _, let file), .invalidConfiguration(_, let file):
            return file
        case .invalidRanges, .invalidPreset, .cancelled, .faceModelsMissing:
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
        case .codecNotSupported(let codec, _):
            return "codec not supported by this FFmpeg build: \(codec)"
        case .invalidTrimTimes(let start, let end, let duration, _):
            let startText = start.map { String(format: "%.3f s", $0) } ?? "start"
            let endText = end.map { String(format: "%.3f s", $0) } ?? "end"
            return "invalid trim range \(startText) to \(endText) for a "
                + String(format: "%.3f s", duration) + " video"
        case .invalidRanges(let reason):
            return "invalid ranges: \(reason)"
        case .nothingToKeep(_, let reason):
            return "nothing to keep: \(reason)"
        case .invalidConfiguration(let reason, _):
            return "invalid configuration: \(reason)"
        case .invalidPreset(let reason):
            return "invalid preset: \(reason)"
        case .decodingFailed(_, _, let reason):
            return "decoding failed: \(reason)"
        case .encodingFailed(_, _, let reason):
            return "encoding failed: \(reason)"
        case .muxingFailed(_, _, let reason):
            return "writing failed: \(reason)"
        case .streamCopyFailed(_, let reason):
            return "lossless copy failed: \(reason)"
        case .faceModelsMissing(let reason):
            return "face models not found: \(reason)"
        case .faceIndexFailed(_, let reason):
            return "face index failed: \(reason)"
        case .chunksNotReady(_, let rerun, let problems):
            return "chunks not ready; rerun \(rerun.joined(separator: " ")): \(problems.joined(separator: "; "))"
        case .cancelled:
            return "cancelled"
        }
    }

    /// The FFmpeg operation that failed, for logs (kept out of `cause`, which people read).
    public var operation: String? {
        switch self {
        case .decodingFailed(_, let operation, _), .encodingFailed(_, let operation, _), .muxingFailed(_, let operation, _):
            return operation
        default:
            return nil
        }
    }

    /// The same error about `replacement` where it was about `original` (a temporary output
    /// file is reported under the name the caller asked for).
    package func replacingFile(_ original: URL, with replacement: URL) -> ReelError {
        func swap(_ url: URL) -> URL { OutputLocation.samePath(url, original) ? replacement : url }
        switch self {
        case .invalidSourceURL(let url): return .invalidSourceURL(swap(url))
        case .unreadableSource(let url, let reason): return .unreadableSource(swap(url), reason: reason)
        case .missingVideoTrack(let url): return .missingVideoTrack(swap(url))
        case .invalidOutputPath(let url, let reason): return .invalidOutputPath(swap(url), reason: reason)
        case .outputEqualsSource(let url): return .outputEqualsSource(swap(url))
        case .decodingFailed(let url, let operation, let reason): return .decodingFailed(swap(url), operation: operation, reason: reason)
        case .encodingFailed(let url, let operation, let reason): return .encodingFailed(swap(url), operation: operation, reason: reason)
        case .muxingFailed(let url, let operation, let reason): return .muxingFailed(swap(url), operation: operation, reason: reason)
        case .faceIndexFailed(let url, let reason): return .faceIndexFailed(swap(url), reason: reason)
        case .streamCopyFailed(let url, let reason): return .streamCopyFailed(swap(url), reason: reason)
        case .chunksNotReady(let url, let rerun, let problems): return .chunksNotReady(swap(url), rerun: rerun, problems: problems)
        case .nothingToKeep(let url, let reason): return .nothingToKeep(swap(url), reason: reason)
        case .codecNotSupported(let codec, let file): return .codecNotSupported(codec, file: file.map(swap))
        case .invalidTrimTimes(let start, let end, let duration, let file):
            return .invalidTrimTimes(start: start, end: end, duration: duration, file: file.map(swap))
        case .invalidConfiguration(let reason, let file): return .invalidConfiguration(reason, file: file.map(swap))
        case .invalidRanges, .invalidPreset, .faceModelsMissing, .cancelled:
            return self
        }
    }

    /// The same error naming `file` when it names none yet (a codec, trim or setting that does
    /// not fit the source being compressed).
    package func naming(source file: URL) -> ReelError {
        switch self {
        case .codecNotSupported(let codec, nil): return .codecNotSupported(codec, file: file)
        case .invalidTrimTimes(let start, let end, let duration, nil):
            return .invalidTrimTimes(start: start, end: end, duration: duration, file: file)
        case .invalidConfiguration(let reason, nil): return .invalidConfiguration(reason, file: file)
        default: return self
        }
    }

    /// `FILE: cause`, or the cause alone when no file is involved.
    public var description: String {
        guard let url = fileURL else { return cause }
        return "\(url.isFileURL ? url.path : url.absoluteString): \(cause)"
    }

    public var errorDescription: String? { description }
}
