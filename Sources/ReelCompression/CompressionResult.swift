import Foundation
import ReelMedia
import ReelSupport

/// What a finished compression produced.
public struct CompressionResult: Sendable, Equatable, Codable {
    /// The compressed file.
    public var url: URL
    /// Measurements of the source and the output.
    public var analytics: CompressionAnalytics
    /// What a planned trim worked its ranges out from (ReelKit's `analysis` reads a highlight
    /// reel's, so a caller can show it without analyzing again); `nil` for other trims. Not
    /// encoded, and not compared by `==`.
    public var trimBasis: (any TrimBasis)?

    /// Creates a result (for mocks; compressions make their own).
    public init(url: URL, analytics: CompressionAnalytics, trimBasis: (any TrimBasis)? = nil) {
        self.url = url
        self.analytics = analytics
        self.trimBasis = trimBasis
    }

    private enum CodingKeys: String, CodingKey {
        case url, analytics
    }

    /// Equal when the files and their measurements are (`trimBasis` aside).
    public static func == (lhs: CompressionResult, rhs: CompressionResult) -> Bool {
        lhs.url == rhs.url && lhs.analytics == rhs.analytics
    }
}

/// Pixel dimensions.
public struct VideoDimensions: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates dimensions.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// A source track that is not in the output, and why.
public struct DroppedTrack: Sendable, Equatable, Codable {
    /// The stream's index in the source.
    public var index: Int
    /// What kind of track it was.
    public var role: StreamRole
    /// Its codec.
    public var codecName: String
    /// Its handler name, when the container has one (e.g. `Disparity`).
    public var handlerName: String?
    /// Why it was not carried over.
    public var reason: String
}

/// Sizes, rates and counts of a compression, measured from the files (not the targets).
public struct CompressionAnalytics: Sendable, Equatable, Codable {
    /// Source file size in bytes.
    public var originalFileSize: Int64
    /// Output file size in bytes.
    public var compressedFileSize: Int64
    /// `originalFileSize / compressedFileSize`; higher is better.
    public var compressionRatio: Double
    /// Wall-clock seconds the compression took, from the start of its planning (a highlight
    /// reel's analysis included) to the finished output.
    public var processingTime: TimeInterval
    /// The part of `processingTime` spent planning: a highlight reel's analysis, a target
    /// quality's shot detection, the probe. `nil` in results made before it was recorded.
    public var planningTime: TimeInterval? = nil
    /// The source's visible dimensions (rotation applied).
    public var originalDimensions: VideoDimensions
    /// The output's coded dimensions (before any rotation matrix).
    public var compressedDimensions: VideoDimensions
    /// The output's visible dimensions (rotation applied).
    public var compressedVisualDimensions: VideoDimensions
    /// Source video bit rate in bits per second, measured from the file.
    public var originalVideoBitrate: Double
    /// Output video bit rate in bits per second, measured from the output file.
    public var compressedVideoBitrate: Double
    /// Source audio bit rate, when the source has audio.
    public var originalAudioBitrate: Double?
    /// Output audio bit rate, when the output has audio.
    public var compressedAudioBitrate: Double?
    /// Source duration in seconds.
    public var originalDuration: Double
    /// Output duration in seconds.
    public var compressedDuration: Double
    /// The source ranges that were kept, in output order (one range for a whole source);
    /// in stream-copy mode, after snapping to keyframes.
    public var keptRanges: [TimeRange]
    /// The ranges asked for; differs from `keptRanges` where stream copy snapped to keyframes.
    public var requestedRanges: [TimeRange]
    /// Source video frames decoded (within the trimmed range).
    public var originalFrameCount: Int
    /// Output video frames written.
    public var compressedFrameCount: Int
    /// Source packets (video and audio) the decoders rejected as corrupt and skipped; the
    /// pictures and sound around them are FFmpeg's concealment. 0 for an intact source.
    public var corruptPacketsSkipped: Int
    /// Decoded source pictures the decoder flagged as damaged (it concealed the errors); they
    /// are in the output as concealed. 0 for an intact source.
    public var damagedFrames: Int
    /// Decoded source pictures timed at or before the picture before them (files joined
    /// without re-timing overlap so), dropped as the ffmpeg CLI drops them. 0 for a source
    /// whose timestamps increase.
    public var mistimedFramesDropped = 0
    /// Where the source's data ends (seconds from its start), when it ends well before the
    /// duration its header gives: a file cut short by an interrupted download or copy. The
    /// output holds what is there, as the ffmpeg CLI makes it. `nil` for a whole source.
    public var sourceCutShortAt: Double?
    /// Source average frame rate.
    public var originalFrameRate: Double
    /// Output average frame rate (video frames / video track duration).
    public var compressedFrameRate: Double
    /// Output video codec as FFmpeg names it (`h264`, `hevc`, ...).
    public var videoCodec: String
    /// Whether the packets were copied without re-encoding (lossless mode).
    public var streamCopied: Bool
    /// Source tracks left out of the output.
    public var droppedTracks: [DroppedTrack]
    /// What content-aware optimization measured and changed, when it ran.
    public var contentAdjustment: ContentAdjustment?
    /// The encoder settings that were used (CRF, bit rates, keyframe interval); nil for a stream copy.
    public var encoding: EncodingSummary?
    /// How the target size was met, for a compression with `targetFileSize`.
    public var targetSize: TargetSizeReport? = nil
    /// How the target quality was met, for a compression with `targetQuality`.
    public var targetQuality: TargetQualityReport? = nil
    /// The virtual camera's path, when the output was reframed (`CompressionConfig.reframing`).
    public var cameraPath: CameraPath? = nil
    /// The loudness before and after, when the sound was normalised (`CompressionConfig.loudness`).
    public var loudness: LoudnessReport? = nil
}

/// The video encoder settings a compression ended up using.
public struct EncodingSummary: Sendable, Equatable, Codable {
    /// Constant rate factor, when quality-driven.
    public var constantRateFactor: Double?
    /// Average target bit rate, in average mode.
    public var targetBitrate: Int?
    /// VBV cap, when capped.
    public var maxBitrate: Int?
    /// Keyframe interval in frames.
    public var keyFrameInterval: Int
    /// Output frame rate target.
    public var frameRate: Double
    /// libavfilter chain applied to the picture.
    public var videoFilter: String
    /// What was done with an HDR source (tone-mapped to SDR or kept); `nil` for SDR sources.
    public var hdr: HDRConversion? = nil
}
