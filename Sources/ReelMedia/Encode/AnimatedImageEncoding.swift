internal import CFFmpeg

/// Encoder settings and options of the animated-image encoders: FFmpeg's `gif` (palette
/// pictures, `pal8`, from `paletteuse`) and `libwebp_anim` (lossy animated WebP).
extension VideoEncoderSettings {
    /// FFmpeg's GIF encoder.
    package static let gifEncoder = "gif"
    /// libwebp's animation encoder (one packet holding the whole animation, written at the end).
    package static let webpEncoder = "libwebp_anim"

    /// Settings for an animated image at `frameRate`: `encoderName` `gif` or `libwebp_anim`;
    /// `quality` is libwebp's 0...100 (ignored by GIF, whose quality is its palette).
    package static func animatedImage(encoderName: String, quality: Double?, frameRate: Double) -> VideoEncoderSettings {
        var settings = VideoEncoderSettings(
            encoderName: encoderName, speedPreset: "", constantRateFactor: nil, averageBitRate: nil, maxBitRate: nil,
            bufferSize: nil, keyFrameInterval: 1, frameRate: frameRate, tenBit: false)
        settings.imageQuality = quality
        return settings
    }

    /// Whether the settings are for an animated-image encoder (no x264/x265 options).
    var isAnimatedImage: Bool { encoderName == Self.gifEncoder || encoderName == Self.webpEncoder }
}

extension Encoder {
    /// The private options of an animated-image encoder: libwebp lossy at the settings'
    /// quality, at its default method 4 (method 6 took 12x as long for 2% fewer bytes on an
    /// 8 s clip at 480x270); GIF keeps its defaults (changed rectangles only, unchanged pixels
    /// transparent).
    static func animatedImageOptions(_ settings: VideoEncoderSettings, into options: inout OpaquePointer?) {
        guard settings.encoderName == VideoEncoderSettings.webpEncoder else { return }
        av_dict_set(&options, "lossless", "0", 0)
        av_dict_set(&options, "quality", String(format: "%.1f", settings.imageQuality ?? 75), 0)
    }
}

/// What the muxers of animated images need.
enum AnimatedImageMuxing {
    /// Whether `formatName` is the `gif` or `webp` muxer.
    static func isAnimatedImage(_ formatName: String) -> Bool { formatName == "gif" || formatName == "webp" }

    /// Header options: loop forever (GIF's NETSCAPE2.0 extension with count 0; WebP's ANIM
    /// chunk loop count 0, which libwebp's encoder writes itself).
    static func headerOptions(into options: inout OpaquePointer?) {
        av_dict_set(&options, "loop", "0", 0)
    }
}
