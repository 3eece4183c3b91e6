import Foundation
import ReelFrameReduction
import ReelMedia
import ReelSupport

/// Every setting of one compression, modeled on JMVideoCompressor's `CompressionConfig`.
public struct CompressionConfig: Sendable, Equatable, Codable {
    // MARK: Video

    /// Output video codec; `.hevc` falls back to `fallbackVideoCodec` when libx265 is missing.
    public var videoCodec: VideoCodec = .h264
    /// Used instead of `videoCodec` when that is not supported; `nil` makes it an error.
    public var fallbackVideoCodec: VideoCodec?
    /// When true the bit rate follows `videoBitrate` (see `bitrateMode`); when false, pure
    /// constant quality from `videoQuality`.
    public var useExplicitBitrate = true
    /// Target (average mode) or cap (capped-quality mode) video bit rate, bits per second.
    public var videoBitrate = 2_000_000
    /// How `videoBitrate` is applied.
    public var bitrateMode: BitrateMode = .cappedQuality
    /// Quality 0 (smallest) ... 1 (best), mapped to CRF: H.264 CRF = 40 - 24 q (1.0 -> 16,
    /// 0.5 -> 28), HEVC CRF = H.264 CRF + 3 (x265's scale gives similar quality 3 points higher).
    public var videoQuality: Float = 0.6
    /// Also scale the bit rate down with the pixel rate: the source's bits per pixel per second
    /// are never exceeded after scaling and frame reduction.
    public var useAdaptiveBitrate = false
    /// Maximum frames between keyframes.
    public var maxKeyFrameInterval = 30
    /// Target frame rate; frames are dropped by the reducer when the source is faster.
    public var fps: Float = 30
    /// Longest side of the visible picture in pixels, aspect kept, even, never upscaled; nil keeps size.
    public var maxLongerDimension: Int?
    /// false: keep coded orientation and carry the source's rotation matrix; true: rotate the
    /// pixels upright and write no rotation.
    public var forceVisualEncodingDimensions = false
    /// Start of the kept part of the source (nil = its start). Frame-accurate.
    public var trimStartTime: MediaTime?
    /// End of the kept part of the source (nil = its end). Frame-accurate.
    public var trimEndTime: MediaTime?
    /// Which parts of the source to keep: all of it (then `trimStartTime`/`trimEndTime` may
    /// cut one range), a list of ranges, or ranges a planner works out (a highlight reel).
    public var trim: TrimSelection = .whole
    /// Seconds of crossfade (picture dissolve and sound crossfade) at each join between kept
    /// ranges; 0 cuts, the sound of the two sides overlapping for 20 ms so the cut neither clicks
    /// nor dips. A join is cut plainly when the range before it is shorter than twice the
    /// crossfade. Each crossfade shortens the output by its length.
    public var crossfadeDuration: Double = 0
    /// Seconds of fade from black and silence at the output's start and back to them at its
    /// end (the first and last pictures black). `nil` leaves it to the trim: a highlight reel
    /// fades (`HighlightReelOptions.edgeFadeDuration`, 0.4 s), other outputs do not; 0 never.
    public var edgeFadeDuration: Double?
    /// Whether the output keeps the source's tags: creation time, title, location and the like
    /// in the container, language, title and handler name on the video and audio tracks.
    /// `false` writes none of them (`reel compress --strip-metadata`), for privacy.
    public var keepsMetadata = true
    /// Encoder speed: x264/x265's preset, mapped onto SVT-AV1's presets and libvpx's
    /// `cpu-used` for AV1 and VP9 (`VideoCodec.speedSetting`).
    public var encoderSpeed: EncoderSpeed = .medium
    /// Encode 10-bit pictures (`yuv420p10le`) whatever the source's depth: smoother gradients
    /// for a few more bytes, for an archive. HEVC, AV1 and VP9 only (an HDR or 10-bit source
    /// keeps 10 bits in them anyway); H.264's High 10 plays in too few places. Ignored by GIF
    /// and WebP.
    public var tenBit = false
    /// A size the output must not exceed: bytes, or a percentage of the source's size
    /// (`reel compress --target-size 25M` or `40%`). The video gets what the audio and the
    /// container leave, as an average bit rate over two passes (one for AV1: FFmpeg 5.1's
    /// SVT-AV1 wrapper has no second pass); an output over the target is
    /// encoded again (at most twice), so the result is never larger. The preset's own rate
    /// settings give way, except that a preset whose cap already fits is kept as it is, and
    /// the picture (then the frame rate) is made smaller when the budget is too small for it.
    /// See `CompressionAnalytics.targetSize`.
    public var targetFileSize: TargetFileSize?
    /// A picture quality to reach, shot by shot, at the fewest bytes (`reel compress
    /// --target-quality ssim:0.98`): each shot's sample is encoded at a few rate factors and
    /// measured against the source (libavfilter's `ssim`/`psnr`), and the shot is encoded at the
    /// largest one that reaches the target. H.264 changes its rate factor at each shot, starting
    /// a closed group of pictures there; HEVC gets one, the lowest the shots need; AV1 and VP9
    /// are refused (the sampled rate factors and their fits are on x264's scale). Overrides the
    /// preset's rate control. See `CompressionAnalytics.targetQuality`.
    public var targetQuality: TargetQuality?
    /// Lossless cut: copy the video and audio packets unchanged instead of re-encoding, with
    /// every range widened to whole groups of pictures (start on the keyframe at or before it,
    /// end on the keyframe at or after it). Encoding settings do not apply; `audioBitrate <= 0`
    /// still drops the audio.
    public var streamCopy = false

    // MARK: Audio

    /// Output audio codec.
    public var audioCodec: AudioCodecType = .aac
    /// Audio bit rate in bits per second; 0 or less drops the audio.
    public var audioBitrate = 128_000
    /// Output sample rate in Hz (never above the source's).
    public var audioSampleRate = 44_100
    /// Output channels (1 or 2); nil keeps the source's, at most 2.
    public var audioChannels: Int?
    /// A loudness to bring the sound to (EBU R128 two-pass linear normalisation with a true-peak
    /// ceiling, `LoudnessTarget`); `nil` leaves it to the trim: a highlight reel is brought to
    /// -14 LUFS (`HighlightReelOptions.loudness`), other outputs keep the source's loudness.
    /// See `CompressionAnalytics.loudness`.
    public var loudness: LoudnessTarget?
    /// Which audio tracks to keep: the primary one (default), one by number, or all of them.
    public var audioTracks: AudioTrackSelection = .primary
    /// Whether text subtitles (SRT, ASS, WebVTT, mov_text...) are kept on the output's
    /// timeline: as `mov_text` in MP4 and MOV, WebVTT in WebM, SRT in Matroska; picture
    /// subtitles cannot be and are dropped.
    public var keepsSubtitles = true
    /// What happens to an HDR (PQ or HLG) source: by default HEVC keeps it (Main 10) and H.264
    /// tone-maps it to SDR BT.709, 8-bit (`HDRHandling`).
    public var hdr: HDRHandling = .automatic

    // MARK: Optimization

    /// Measure motion and detail on sampled frames and adjust keyframe interval and rate
    /// (see `ContentAwareTuning`).
    public var contentAwareOptimization = true
    /// Denoising and other picture preparation.
    public var preprocessing = PreprocessingOptions()
    /// Reframing to another shape (9:16, 4:5, 1:1, 16:9) with a virtual camera that follows
    /// the subject; `nil` keeps the source's frame.
    public var reframing: Reframing?

    // MARK: Output

    /// Output container; `.gif` and `.webp` are looping animations without sound (see
    /// `applyAnimatedImageDefaults()` for their usual frame rate and size); `.webm` takes only
    /// AV1 or VP9 with Opus (see `applyWebMDefaults()`).
    public var fileType: OutputFileType = .mp4
    /// Exact output file; overrides `outputDirectory`. Its directory is created when missing.
    public var outputURL: URL?
    /// Directory for an output with a generated name; default the system temporary directory.
    public var outputDirectory: URL?

    /// The default configuration (medium quality settings without a preset's extras).
    public static let `default` = CompressionConfig()

    /// Creates the default configuration.
    public init() {}

    /// Checks values that are wrong whatever the source.
    public func validate() throws(ReelError) {
        if !(0...1).contains(videoQuality) || videoQuality.isNaN {
            throw .invalidConfiguration("videoQuality must be between 0 and 1, got \(videoQuality)")
        }
        if useExplicitBitrate && videoBitrate <= 0 {
            throw .invalidConfiguration("videoBitrate must be positive, got \(videoBitrate)")
        }
        if maxKeyFrameInterval < 1 {
            throw .invalidConfiguration("maxKeyFrameInterval must be at least 1, got \(maxKeyFrameInterval)")
        }
        if !(fps > 0) || fps > 1000 {
            throw .invalidConfiguration("fps must be between 0 and 1000, got \(fps)")
        }
        if let size = maxLongerDimension, size < 16 {
            throw .invalidConfiguration("maxLongerDimension must be at least 16, got \(size)")
        }
        if let channels = audioChannels, !(1...2).contains(channels) {
            throw .invalidConfiguration("audioChannels must be 1 or 2, got \(channels)")
        }
        if !(0...5).contains(crossfadeDuration) {
            throw .invalidConfiguration("crossfadeDuration must be between 0 and 5 s, got \(crossfadeDuration)")
        }
        if streamCopy && crossfadeDuration > 0 {
            throw .invalidConfiguration("a stream copy cannot crossfade; crossfades need re-encoding")
        }
        if let fade = edgeFadeDuration {
            if !(0...5).contains(fade) {
                throw .invalidConfiguration("edgeFadeDuration must be between 0 and 5 s, got \(fade)")
            }
            if streamCopy && fade > 0 { throw .invalidConfiguration("a stream copy cannot fade; fades need re-encoding") }
        }
        if let loudness {
            try loudness.validate()
            if streamCopy { throw .invalidConfiguration("a stream copy cannot change the loudness; it needs re-encoding") }
        }
        if let target = targetFileSize {
            switch target {
            case .bytes(let bytes) where bytes <= 0:
                throw .invalidConfiguration("targetFileSize must be positive, got \(bytes) bytes")
            case .percentOfSource(let percent) where !(percent > 0 && percent < 100):
                throw .invalidConfiguration("targetFileSize as a share of the source must be between 0 and 100%, got \(percent)%")
            default:
                break
            }
            if streamCopy {
                throw .invalidConfiguration("a stream copy cannot aim at a size: it does not re-encode")
            }
        }
        if let quality = targetQuality {
            let valid = quality.metric == .ssim ? (0.5..<1).contains(quality.value) : (15...80).contains(quality.value)
            if !valid {
                throw .invalidConfiguration(quality.metric == .ssim
                    ? "a target SSIM is between 0.5 and 1 (0.98 looks like the source), got \(quality.value)"
                    : "a target PSNR is between 15 and 80 dB, got \(quality.value)")
            }
            if streamCopy || targetFileSize != nil || crossfadeDuration > 0 {
                throw .invalidConfiguration("a target quality cannot be combined with a stream copy, a target size or crossfades")
            }
        }
        if reframing != nil && streamCopy {
            throw .invalidConfiguration("a stream copy cannot reframe: cropping needs re-encoding")
        }
        if reframing != nil && targetQuality != nil {
            throw .invalidConfiguration("a target quality cannot be combined with reframing yet: its measurements compare the "
                + "whole source picture")
        }
        if trim != .whole && (trimStartTime != nil || trimEndTime != nil) {
            throw .invalidConfiguration("use either trimStartTime/trimEndTime or trim, not both")
        }
        if case .number(let number) = audioTracks, number < 1 {
            throw .invalidConfiguration("audio track numbers count from 1, got \(number)")
        }
        if audioBitrate > 0 && !(8_000...192_000).contains(audioSampleRate) {
            throw .invalidConfiguration("audioSampleRate must be 8000...192000 Hz, got \(audioSampleRate)")
        }
        try validateAnimatedImage()
        try validateContainer()
    }
}

extension CompressionConfig {
    /// Seconds of `source` this configuration keeps (the output's length before crossfades),
    /// when known before compressing: `nil` for trims that do not fit the source, and for
    /// planned trims without a budget.
    public func keptDuration(of source: MediaInfo) -> Double? {
        if case .planned(let planner) = trim {
            return planner.maximumDuration.map { min($0, source.duration) }
        }
        let planner = CompressionPlanner(source: source, config: self, reducer: ReduceFrameEvenlySpaced())
        guard let ranges = try? planner.keptRanges() else { return nil }
        return ranges.map { ($0.end - $0.start).seconds }.reduce(0, +)
    }
}
