import ReelMedia
import ReelSupport

// AV1 and VP9 beside H.264 and HEVC: the same settings mapped onto SVT-AV1's and libvpx's
// scales, and the containers that hold them. The numbers come from the curves in
// Benchmarks/codecs/README.md.

extension VideoCodec {
    /// The encoder's speed setting for `speed`: x264/x265's preset name; SVT-AV1's preset
    /// (0 slowest ... 13 fastest); libvpx's deadline and `cpu-used` (`good:0` ... `good:5`,
    /// then the realtime deadline for the three fastest).
    public func speedSetting(_ speed: EncoderSpeed) -> String {
        switch self {
        case .h264, .hevc:
            return speed.rawValue
        case .av1:
            let presets: [EncoderSpeed: Int] = [
                .ultrafast: 13, .superfast: 12, .veryfast: 11, .faster: 10, .fast: 9,
                .medium: 8, .slow: 6, .slower: 5, .veryslow: 4,
            ]
            return String(presets[speed] ?? 8)
        case .vp9:
            let settings: [EncoderSpeed: String] = [
                .ultrafast: "realtime:8", .superfast: "realtime:7", .veryfast: "realtime:6", .faster: "good:5",
                .fast: "good:4", .medium: "good:3", .slow: "good:2", .slower: "good:1", .veryslow: "good:0",
            ]
            return settings[speed] ?? "good:3"
        }
    }

    /// The codec's rate factor for an H.264 CRF `x264` (the scale `videoQuality` is defined
    /// on): HEVC three points higher; AV1 and VP9 on their 0...63 scales, fitted so that the
    /// same `videoQuality` gives about the same SSIM as H.264 on the benchmark footage.
    public func rateFactor(x264 crf: Double) -> Double {
        switch self {
        case .h264: return crf
        case .hevc: return crf + 3
        case .av1: return min(max(crf * Self.av1Slope + Self.av1Offset, 1), 63)
        case .vp9: return min(max(crf * Self.vp9Slope + Self.vp9Offset, 0), 63)
        }
    }

    /// The encoder's rate factor for one a target-quality fit chose. The fit, its samples and
    /// its limits work on x264's and x265's own scales; for AV1 and VP9 they work on H.264's,
    /// mapped by `rateFactor(x264:)` and rounded (SVT-AV1 and libvpx take whole numbers), so
    /// a step means about the same change in quality for every codec.
    func encoderRateFactor(fitted: Double) -> Double {
        switch self {
        case .h264, .hevc: return fitted
        case .av1, .vp9: return rateFactor(x264: fitted).rounded()
        }
    }

    /// The fit's rate factor for one the encoder was given (undoes `encoderRateFactor`).
    func fittedRateFactor(encoder: Double) -> Double {
        switch self {
        case .h264, .hevc: return encoder
        case .av1: return (encoder - Self.av1Offset) / Self.av1Slope
        case .vp9: return (encoder - Self.vp9Offset) / Self.vp9Slope
        }
    }

    /// How many of this codec's rate-factor steps one H.264 step is.
    var rateFactorScale: Double {
        switch self {
        case .h264, .hevc: return 1
        case .av1: return Self.av1Slope
        case .vp9: return Self.vp9Slope
        }
    }

    // Fitted on Benchmarks/codecs (vtest, Megamind, BBB; SVT-AV1 preset 8, libvpx cpu-used 3):
    // the CRF that gave each x264 medium CRF's SSIM, averaged over the clips. AV1: 20 -> 18.8,
    // 23 -> 26.4, 26 -> 33.7, 29 -> 41.6; VP9: 20 -> 15.8, 23 -> 20.8, 26 -> 25.6, 29 -> 30.8.
    private static let av1Slope = 2.5
    private static let av1Offset = -31.5
    private static let vp9Slope = 1.7
    private static let vp9Offset = -18.2

    /// Whether WebM can hold this codec.
    var fitsWebM: Bool { self == .av1 || self == .vp9 }
}

extension AudioCodecType {
    /// The sample rate every Opus output gets (libopus codes at 48 kHz).
    public static let opusSampleRate = 48_000
}

extension CompressionConfig {
    /// For a WebM `fileType`, the codecs WebM holds in place of those it cannot: H.264 or HEVC
    /// becomes AV1 (`videoCodec`, with no fallback), AAC becomes Opus (`audioCodec`); the flags
    /// say which may change, so that codecs a person chose are kept and then refused by
    /// `validate()` with the reason. Does nothing for other containers.
    public mutating func applyWebMDefaults(videoCodec changesVideo: Bool = true, audioCodec changesAudio: Bool = true) {
        guard fileType == .webm else { return }
        if changesVideo, !videoCodec.fitsWebM {
            videoCodec = .av1
            fallbackVideoCodec = nil
        }
        if changesAudio, audioCodec != .opus { audioCodec = .opus }
    }

    /// The codec and container combinations that cannot be written or played.
    func validateContainer() throws(ReelError) {
        let codecs = [videoCodec] + (fallbackVideoCodec.map { [$0] } ?? [])
        let keepsAudio = audioBitrate > 0 && !fileType.isAnimatedImage
        switch fileType {
        case .webm:
            if !streamCopy, let codec = codecs.first(where: { !$0.fitsWebM }) {
                throw .invalidConfiguration("WebM holds AV1 or VP9 video, not \(codec.rawValue); use --codec av1 or vp9, "
                    + "or mp4/mkv for \(codec.rawValue)")
            }
            if !streamCopy, keepsAudio, audioCodec != .opus {
                throw .invalidConfiguration("WebM holds Opus sound, not \(audioCodec.rawValue); use the opus audio codec, "
                    + "or mp4/mkv for \(audioCodec.rawValue)")
            }
        case .mov:
            if !streamCopy, let codec = codecs.first(where: { $0 == .av1 || $0 == .vp9 }) {
                throw .invalidConfiguration("QuickTime players do not play \(codec.rawValue) in MOV; write mp4, webm or mkv")
            }
            if !streamCopy, keepsAudio, audioCodec == .opus {
                throw .invalidConfiguration("QuickTime players do not play Opus in MOV; write mp4, webm or mkv, or use aac")
            }
        case .mp4, .mkv, .gif, .webp:
            break
        }
        if tenBit, !fileType.isAnimatedImage, codecs.contains(.h264) {
            throw .invalidConfiguration("10-bit output is for hevc, av1 and vp9: H.264's High 10 plays in too few places")
        }
    }
}

extension CompressionPlanner {
    /// A stream copy keeps the source's codecs, and the container must hold them, which its
    /// muxer would otherwise refuse with a bare "Invalid argument": a WebM only VP8, VP9 or AV1
    /// pictures and Opus or Vorbis sound, an MP4 no MS-MPEG4 (vtest.avi's) or PCM sound
    /// (`ContainerFit`, as FFmpeg's muxers declare).
    func checkCopiedCodecsFit(audio: [StreamInfo]) throws(ReelError) {
        let copied = (source.primaryVideo.map { [$0] } ?? []) + audio
        func fits(_ stream: StreamInfo, _ type: OutputFileType) -> Bool {
            ContainerFit.holds(stream.codecName, formatName: type.muxerName)
        }
        guard let stream = copied.first(where: { !fits($0, config.fileType) }) else { return }
        let kind = stream.audio != nil ? "sound" : "picture"
        let others = [OutputFileType.mp4, .mkv, .mov, .webm]
            .filter { type in type != config.fileType && copied.allSatisfy { fits($0, type) } }
        throw .invalidConfiguration("a stream copy keeps the source's \(stream.codecName) \(kind), which "
            + "\(config.fileType.containerName) cannot hold; "
            + (others.isEmpty ? "" : "copy into \(others.map(\.rawValue).joined(separator: " or ")), or ")
            + "re-encode (without --copy)", file: source.url)
    }
}
