import Foundation
import ReelSupport

/// What a media file holds: container facts and every stream, as plain values.
public struct MediaInfo: Sendable, Codable, Equatable {
    /// The file that was probed.
    public var url: URL
    /// FFmpeg's short container name, e.g. `mov,mp4,m4a,3gp,3g2,mj2` or `matroska,webm`.
    public var containerName: String
    /// The container's duration in seconds (0 when unknown).
    public var duration: Double
    /// The container's start time in seconds.
    public var startTime: Double
    /// The file's size in bytes.
    public var fileSize: Int64
    /// The overall bit rate in bits per second, from size and duration.
    public var bitRate: Int64
    /// Every stream in file order.
    public var streams: [StreamInfo]
    /// The stream FFmpeg picks as the best video stream.
    public var primaryVideoStreamIndex: Int?
    /// The stream FFmpeg picks as the best audio stream for the primary video.
    public var primaryAudioStreamIndex: Int?

    /// How the streams are laid out (time bases, starts, lengths), as probing found them, so
    /// that later readers of the file neither probe it again nor ask the demuxer; `nil` for a
    /// description decoded from JSON (readers then probe).
    package var layout: ProbedLayout?
    /// Whether the file is a raw elementary stream (.h264, .hevc): no container, no timestamps,
    /// read forward from its start, never sought by time.
    package var isRawStream = false

    private enum CodingKeys: String, CodingKey {
        case url, containerName, duration, startTime, fileSize, bitRate, streams
        case primaryVideoStreamIndex, primaryAudioStreamIndex
    }

    /// The primary video stream, if any.
    public var primaryVideo: StreamInfo? { primaryVideoStreamIndex.map { streams[$0] } }

    /// Whether the file is a still image (PNG, JPEG, WebP...) rather than a video.
    public var isStillImage: Bool { Self.isStillImageContainer(containerName) }

    /// Whether FFmpeg's demuxer `name` reads still images (`image2`, `png_pipe`, `jpeg_pipe`...).
    static func isStillImageContainer(_ name: String) -> Bool { name.hasPrefix("image2") || name.hasSuffix("_pipe") }

    /// Throws unless the file has a video stream that moves: a still image is "not a video".
    package func requireVideo() throws(ReelError) {
        if isStillImage {
            if let animation = AnimatedWebPInfo(contentsOf: url), animation.frameDurations.count > 1 {
                throw .unreadableSource(url, reason: "an animated WebP (\(animation.frameDurations.count) pictures), which FFmpeg 5.1 "
                    + "cannot decode; a GIF or a video of it can be read")
            }
            throw .unreadableSource(url, reason: "not a video: a still image (\(streams.first?.codecName ?? containerName))")
        }
        guard primaryVideo != nil else { throw .missingVideoTrack(url) }
    }
    /// The primary audio stream, if any.
    public var primaryAudio: StreamInfo? { primaryAudioStreamIndex.map { streams[$0] } }
    /// The audio tracks, in file order (`reel compress --audio-track N` counts them from 1).
    public var audioStreams: [StreamInfo] { streams.filter { $0.kind == .audio && $0.audio != nil } }
}

/// The kind of data a stream carries.
public enum StreamKind: String, Sendable, Codable {
    case video, audio, subtitle, data, attachment, unknown
}

/// What a stream is for, relative to the file's main picture and sound.
public enum StreamRole: String, Sendable, Codable {
    /// The main video stream (FFmpeg's best video stream).
    case primaryVideo = "primary-video"
    /// The main audio stream.
    case primaryAudio = "primary-audio"
    /// Another video track, such as a depth/disparity track or a second angle.
    case auxiliaryVideo = "auxiliary-video"
    /// Another audio track (commentary, other language).
    case auxiliaryAudio = "auxiliary-audio"
    /// A still image attached as cover art.
    case coverArt = "cover-art"
    /// Timed metadata, timecode or other data.
    case data
    /// Subtitles.
    case subtitle
    /// Anything else.
    case other
}

/// One stream of a media file.
public struct StreamInfo: Sendable, Codable, Equatable {
    /// The stream's index in the container.
    public var index: Int
    /// Video, audio, data, ...
    public var kind: StreamKind
    /// What the stream is for.
    public var role: StreamRole
    /// FFmpeg's codec name (`h264`, `hevc`, `aac`...), or the codec tag for unknown data.
    public var codecName: String
    /// The codec profile name, when FFmpeg knows it (e.g. `Main 10`).
    public var profile: String?
    /// The stream's bit rate in bits per second, measured from its packets when the header lacks it.
    public var bitRate: Int64?
    /// The stream's duration in seconds, when known.
    public var duration: Double?
    /// The number of frames (samples for data), when the container states it.
    public var frameCount: Int64?
    /// The container's handler name for the track (e.g. `Disparity`), when present.
    public var handlerName: String?
    /// Video details, for video streams.
    public var video: VideoStreamInfo?
    /// Audio details, for audio streams.
    public var audio: AudioStreamInfo?
    /// The track's language tag (ISO 639-2, e.g. `fra`), when the container has one.
    public var language: String? = nil
    /// For subtitles: whether they are text (carried as `mov_text`) rather than pictures.
    public var isTextSubtitle: Bool? = nil
}

/// Picture facts of a video stream.
public struct VideoStreamInfo: Sendable, Codable, Equatable {
    /// Coded width in pixels.
    public var width: Int
    /// Coded height in pixels.
    public var height: Int
    /// Clockwise display rotation in degrees (0, 90, 180 or 270) from the display matrix.
    public var rotation: Int
    /// Width as displayed, after rotation.
    public var visualWidth: Int { rotation % 180 == 0 ? width : height }
    /// Height as displayed, after rotation.
    public var visualHeight: Int { rotation % 180 == 0 ? height : width }
    /// Average frame rate (frames per second), 0 when unknown.
    public var frameRate: Double
    /// The smallest frame interval's rate FFmpeg guessed (`r_frame_rate`).
    public var baseFrameRate: Double
    /// Whether frame intervals vary (average and base rates disagree).
    public var isVariableFrameRate: Bool
    /// Pixel format name, e.g. `yuv420p10le`.
    public var pixelFormat: String
    /// Bits per color component.
    public var bitDepth: Int
    /// Color description.
    public var color: ColorInfo
    /// HDR mastering display and content light metadata, when the stream declares them.
    public var hdr: HDRMetadata?
    /// How much wider than tall a stored pixel is shown (the sample aspect ratio, e.g. 32/27 for
    /// widescreen NTSC DVD); `nil` for square pixels or when the file does not say.
    public var pixelAspectRatio: Double? = nil
    /// Whether the stream says its pictures are interlaced (two fields a picture, as in TV
    /// recordings and camcorder tapes); `false` for progressive or unknown.
    public var isInterlaced = false

    /// The displayed size after rotation with the pixels made square: `visualWidth` and
    /// `visualHeight`, the side the stored width becomes stretched by `pixelAspectRatio`.
    public var squarePixelVisualSize: (width: Double, height: Double) {
        let aspect = pixelAspectRatio ?? 1
        return rotation % 180 == 0
            ? (Double(visualWidth) * aspect, Double(visualHeight))
            : (Double(visualWidth), Double(visualHeight) * aspect)
    }
}

/// Color description of a video stream, as FFmpeg names it.
public struct ColorInfo: Sendable, Codable, Equatable {
    /// Color primaries, e.g. `bt709`, `bt2020`.
    public var primaries: String?
    /// Transfer characteristics, e.g. `bt709`, `smpte2084` (PQ), `arib-std-b67` (HLG).
    public var transfer: String?
    /// Matrix coefficients, e.g. `bt709`, `bt2020nc`.
    public var matrix: String?
    /// `tv` (limited) or `pc` (full).
    public var range: String?

    /// Whether the transfer is an HDR one (PQ or HLG).
    public var isHDR: Bool { transfer == "smpte2084" || transfer == "arib-std-b67" }
}

/// HDR10 static metadata: mastering display color volume and content light level.
public struct HDRMetadata: Sendable, Codable, Equatable {
    /// Display primaries as CIE 1931 xy: red, green, blue (x, y) pairs.
    public var displayPrimaries: [[Double]]?
    /// White point as CIE 1931 xy.
    public var whitePoint: [Double]?
    /// Minimum mastering luminance in cd/m².
    public var minLuminance: Double?
    /// Maximum mastering luminance in cd/m².
    public var maxLuminance: Double?
    /// Maximum content light level in cd/m².
    public var maxContentLightLevel: Int?
    /// Maximum frame-average light level in cd/m².
    public var maxFrameAverageLightLevel: Int?

    /// Whether mastering display values are present.
    public var hasMasteringDisplay: Bool { maxLuminance != nil }
    /// Whether content light levels are present.
    public var hasContentLightLevel: Bool { maxContentLightLevel != nil }
}

/// Sound facts of an audio stream.
public struct AudioStreamInfo: Sendable, Codable, Equatable {
    /// Samples per second.
    public var sampleRate: Int
    /// Number of channels.
    public var channels: Int
    /// Channel layout name, e.g. `stereo`.
    public var channelLayout: String?
    /// Sample format name, e.g. `fltp`.
    public var sampleFormat: String
}
