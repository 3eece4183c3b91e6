import Foundation
import ReelCompression
import ReelFrameReduction
import ReelSupport

/// JMVideoCompressor's API on ReelKit, so code written against its README compiles and runs with
/// only `import JMVideoCompressor` changed to `import ReelKit` (Tests/JMVideoCompressorSampleTests
/// holds that README's examples). It forwards to `VideoCompressor` and throws
/// `JMVideoCompressorError` untyped, as JMVideoCompressor does; new code should use
/// `VideoCompressor`, whose typed `ReelError`s carry more detail.
public final class JMVideoCompressor: Sendable {
    private let compressor = VideoCompressor()

    /// Creates a compressor.
    public init() {}

    /// Compresses `source` with a preset (JMVideoCompressor's `compressVideo(_:quality:...)`).
    public func compressVideo(
        _ source: URL, quality: VideoQuality = .mediumQuality, frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        outputDirectory: URL? = nil, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws -> CompressionResult {
        do {
            return try await compressor.compressVideo(
                source, quality: quality, frameReducer: frameReducer, outputDirectory: outputDirectory, progressHandler: progressHandler)
        } catch {
            throw JMVideoCompressorError(error)
        }
    }

    /// Compresses `source` with explicit settings (JMVideoCompressor's `compressVideo(_:config:...)`).
    public func compressVideo(
        _ source: URL, config: CompressionConfig, frameReducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws -> CompressionResult {
        do {
            return try await compressor.compressVideo(source, config: config, frameReducer: frameReducer, progressHandler: progressHandler)
        } catch {
            throw JMVideoCompressorError(error)
        }
    }

    /// Stops the running compressions; they throw `JMVideoCompressorError.cancelled`.
    public func cancel() { compressor.cancel() }
}

/// JMVideoCompressor's errors, made from ReelKit's: its AVFoundation reader and writer failures
/// are FFmpeg's decoding and encoding failures here; `underlyingError` carries every
/// `ReelError` without a case of its own (unreadable source, bad configuration or ranges...).
public enum JMVideoCompressorError: Error, Sendable, LocalizedError {
    case invalidSourceURL(URL)
    case invalidOutputPath(URL)
    case missingVideoTrack
    case readerInitializationFailed(ReelError?)
    case writerInitializationFailed(ReelError?)
    case compressionFailed(ReelError)
    case cancelled
    case codecNotSupported(VideoCodec)
    case underlyingError(ReelError)

    /// The JMVideoCompressor case for a ReelKit error.
    public init(_ error: ReelError) {
        switch error {
        case .invalidSourceURL(let url): self = .invalidSourceURL(url)
        case .invalidOutputPath(let url, _), .outputEqualsSource(let url): self = .invalidOutputPath(url)
        case .missingVideoTrack: self = .missingVideoTrack
        case .decodingFailed: self = .readerInitializationFailed(error)
        case .muxingFailed: self = .writerInitializationFailed(error)
        case .encodingFailed, .streamCopyFailed: self = .compressionFailed(error)
        case .cancelled: self = .cancelled
        // An audio codec without an encoder (HE-AAC: Debian's FFmpeg has no libfdk_aac) has no
        // case of its own.
        case .codecNotSupported(let name, _): self = VideoCodec(rawValue: name).map { .codecNotSupported($0) } ?? .underlyingError(error)
        default: self = .underlyingError(error)
        }
    }

    /// The ReelKit error's message (naming the file and the cause), or the case.
    public var errorDescription: String? {
        switch self {
        case .invalidSourceURL(let url): return ReelError.invalidSourceURL(url).description
        case .invalidOutputPath(let url): return "\(url.path): invalid output path"
        case .missingVideoTrack: return "the source has no video track"
        case .readerInitializationFailed(let error), .writerInitializationFailed(let error): return error?.description
        case .compressionFailed(let error), .underlyingError(let error): return error.description
        case .cancelled: return "cancelled"
        case .codecNotSupported(let codec): return "the \(codec.rawValue) encoder is not in this FFmpeg"
        }
    }
}
