import ReelMedia

/// The video codec of the output.
public enum VideoCodec: String, Sendable, Codable, CaseIterable {
    /// H.264 / AVC through libx264.
    case h264
    /// H.265 / HEVC through libx265 (tagged `hvc1` for Apple players).
    case hevc
    /// AV1 through SVT-AV1 (`libsvtav1`): in MP4, WebM or Matroska.
    case av1
    /// VP9 through libvpx (`libvpx-vp9`): in WebM, Matroska or MP4.
    case vp9

    /// The FFmpeg encoder used for this codec.
    public var encoderName: String {
        switch self {
        case .h264: return "libx264"
        case .hevc: return "libx265"
        case .av1: return VideoEncoderSettings.svtAV1Encoder
        case .vp9: return VideoEncoderSettings.vp9Encoder
        }
    }

    /// Whether an HDR or 10-bit source keeps its 10 bits by default (HEVC Main 10, AV1 Main
    /// 10-bit, VP9 profile 2); H.264 only when asked (`HDRHandling.keep`).
    var keepsTenBitByDefault: Bool { self != .h264 }

    /// Whether the encoder puts its keyframes at shot changes as well as at the interval
    /// (x264's and x265's scenecut). SVT-AV1 1.4 and one-pass libvpx place them only every
    /// `maxKeyFrameInterval` frames: a fixed grid a chunked encode can keep.
    public var placesKeyframesAtShots: Bool { self == .h264 || self == .hevc }

    /// Whether this FFmpeg build has the encoder (decided at run time).
    public func isSupported() -> Bool { EncoderAvailability.has(encoderName) }
}

/// The audio codec of the output.
public enum AudioCodecType: String, Sendable, Codable, CaseIterable {
    /// AAC-LC through FFmpeg's native encoder.
    case aac
    /// HE-AAC v1 (AAC + SBR); needs an encoder such as libfdk_aac, which Debian's FFmpeg lacks.
    case aac_he_v1
    /// HE-AAC v2 (AAC + SBR + PS); needs libfdk_aac too.
    case aac_he_v2
    /// Opus through libopus, always at 48 kHz (the rate Opus codes at; other sources are
    /// resampled). The one audio codec of WebM.
    case opus

    /// The FFmpeg encoders able to produce this codec, in order of preference.
    var encoderCandidates: [String] {
        switch self {
        case .aac: return ["aac", "libfdk_aac"]
        case .aac_he_v1, .aac_he_v2: return ["libfdk_aac"]
        case .opus: return ["libopus"]
        }
    }

    /// The first available encoder, if any.
    var availableEncoder: String? { encoderCandidates.first { EncoderAvailability.has($0) } }

    /// Whether this FFmpeg build can encode this codec (decided at run time).
    public func isSupported() -> Bool { availableEncoder != nil }
}

/// The output container.
public enum OutputFileType: String, Sendable, Codable, CaseIterable {
    /// MPEG-4 (`.mp4`).
    case mp4
    /// QuickTime (`.mov`).
    case mov
    /// Animated GIF (`.gif`), looping forever: pictures only, 256 colours from a palette made
    /// for the clip (see `CompressionConfig.applyAnimatedImageDefaults`).
    case gif
    /// Animated WebP (`.webp`), lossy, looping forever: pictures only.
    case webp
    /// WebM (`.webm`): VP9 or AV1 with Opus, text subtitles as WebVTT.
    case webm
    /// Matroska (`.mkv`): any of the video codecs, AAC or Opus, text subtitles as SRT.
    case mkv

    /// The file extension, without the dot.
    public var fileExtension: String { rawValue }

    /// The FFmpeg muxer that writes this container.
    package var muxerName: String { self == .mkv ? "matroska" : rawValue }

    /// The container's name for a person: MP4, MOV, WebM, Matroska, GIF, WebP.
    var containerName: String {
        switch self {
        case .webm: return "WebM"
        case .mkv: return "Matroska"
        case .webp: return "WebP"
        case .mp4, .mov, .gif: return rawValue.uppercased()
        }
    }
}

/// How strongly to denoise before encoding (libavfilter's `hqdn3d`).
public enum NoiseReduction: String, Sendable, Codable, CaseIterable {
    case none, low, medium, high

    /// The `hqdn3d` filter for this strength (spatial luma:chroma, temporal luma:chroma), or nil.
    var filter: String? {
        switch self {
        case .none: return nil
        case .low: return "hqdn3d=2:1.5:3:2.25"
        case .medium: return "hqdn3d=4:3:6:4.5"
        case .high: return "hqdn3d=7:5.25:10:7.5"
        }
    }
}

/// Steps applied to the picture before encoding.
public struct PreprocessingOptions: Sendable, Codable, Equatable {
    /// Denoising strength.
    public var noiseReduction: NoiseReduction
    /// Stretch each picture's levels to the full range (JMVideoCompressor's placeholder, real
    /// here): libavfilter's `normalize`, black and white points from the picture's darkest and
    /// brightest values averaged over `autoLevelsSmoothing` frames (no flicker), the colour
    /// channels stretched together so the colour balance is kept.
    public var autoLevels: Bool

    /// Frames the levels are averaged over.
    public static let autoLevelsSmoothing = 25

    /// Creates preprocessing options.
    public init(noiseReduction: NoiseReduction = .none, autoLevels: Bool = false) {
        self.noiseReduction = noiseReduction
        self.autoLevels = autoLevels
    }

    private enum CodingKeys: String, CodingKey { case noiseReduction, autoLevels }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        noiseReduction = try container.decode(NoiseReduction.self, forKey: .noiseReduction)
        // Presets written before auto levels existed leave it out.
        autoLevels = try container.decodeIfPresent(Bool.self, forKey: .autoLevels) ?? false
    }

    /// The `normalize` filter when auto levels are on.
    var autoLevelsFilter: String? {
        autoLevels ? "normalize=smoothing=\(Self.autoLevelsSmoothing):independence=0" : nil
    }
}

/// How the video bit rate is controlled when `useExplicitBitrate` is true.
public enum BitrateMode: String, Sendable, Codable, CaseIterable {
    /// Constant quality (CRF from `videoQuality`) capped by VBV at `videoBitrate`: simple scenes
    /// take fewer bits than the cap, busy scenes are held to it.
    case cappedQuality
    /// Plain average bit rate at `videoBitrate` (what AVAssetWriter-style compressors do).
    case average
}

/// Encoder speed, named after x264/x265's presets: slower is smaller at the same quality.
/// AV1 and VP9 map them onto SVT-AV1's presets and libvpx's `cpu-used` (`VideoCodec.speedSetting`).
public enum EncoderSpeed: String, Sendable, Codable, CaseIterable {
    case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow
}
