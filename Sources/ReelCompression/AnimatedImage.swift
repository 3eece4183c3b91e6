import Foundation
import ReelMedia
import ReelSupport

extension OutputFileType {
    /// Whether the output is an animated image (GIF or WebP): pictures only, looping forever;
    /// the source's sound and subtitles are dropped (listed in
    /// `CompressionAnalytics.droppedTracks`, with the reason).
    public var isAnimatedImage: Bool { self == .gif || self == .webp }

    /// The FFmpeg encoder of an animated image, `nil` for video containers.
    var animatedImageEncoder: String? {
        switch self {
        case .gif: return VideoEncoderSettings.gifEncoder
        case .webp: return VideoEncoderSettings.webpEncoder
        case .mp4, .mov: return nil
        }
    }
}

extension CompressionConfig {
    /// The frame rate a GIF or WebP gets unless one is chosen (`applyAnimatedImageDefaults`).
    public static let animatedImageFrameRate: Float = 15
    /// The longer side, in pixels, a GIF or WebP gets unless one is chosen (never upscaled).
    public static let animatedImageLongerSide = 480

    /// For a GIF or WebP `fileType`, puts the format's frame rate (15 fps) and size (480 pixels
    /// on the longer side, never upscaled) in place of the video ones: `frameRate` and `size`
    /// say which, so that values a person chose are kept (`reel compress --format gif` leaves
    /// `--fps` and `--max-dimension` as given). Does nothing for MP4 and MOV.
    ///
    /// Other settings apply as for video: `videoQuality` sets a GIF's palette colours (256 from
    /// 0.5 up, halving every 0.125 below) and a WebP's quality (libwebp's `15 + 100 q`, 75 at
    /// the default 0.6); the bit rate, codec, speed and keyframe settings do not apply.
    public mutating func applyAnimatedImageDefaults(frameRate: Bool = true, size: Bool = true) {
        guard fileType.isAnimatedImage else { return }
        if frameRate { fps = Self.animatedImageFrameRate }
        if size { maxLongerDimension = Self.animatedImageLongerSide }
    }

    /// A GIF's palette size from `videoQuality`: 256 from 0.5 up, halving every 0.125 below
    /// (16 at 0).
    var gifColours: Int {
        let quality = Double(min(max(videoQuality, 0), 1))
        guard quality < 0.5 else { return 256 }
        return max(16, Int((256 * pow(2, (quality - 0.5) * 8)).rounded()))
    }

    /// A WebP's libwebp quality (0...100) from `videoQuality`: 15 + 100 q, at most 100.
    var webpQuality: Double {
        min(max(15 + 100 * Double(videoQuality), 0), 100).rounded(toPlaces: 1)
    }

    /// The settings a GIF or WebP cannot take.
    func validateAnimatedImage() throws(ReelError) {
        guard fileType.isAnimatedImage else { return }
        let name = fileType.rawValue.uppercased()
        if streamCopy {
            throw .invalidConfiguration("a \(name) is always encoded; a stream copy cannot make one")
        }
        if targetQuality != nil {
            throw .invalidConfiguration("a target quality is for MP4 and MOV; a \(name) takes a target size or a quality")
        }
    }
}

/// GIF's picture chain: one palette for the whole output, made from every picture
/// (`palettegen`, `stats_mode=full`), and ordered (Bayer) dithering at its finest pattern
/// (`bayer_scale=5`), only where pictures change (`diff_mode=rectangle`).
///
/// Measured on 8 s pieces of Big Buck Bunny and Megamind at 15 fps, 480 px (Benchmarks/gif.md):
/// against the error-diffusion dithering of FFmpeg's usual recipe (`sierra2_4a`), ordered
/// dithering keeps its pattern still from picture to picture, so unchanged areas stay unchanged
/// and compress; the GIF is 20-55% smaller at a higher SSIM. Per-picture palettes (`stats_mode=
/// single`, `new=1`) reach 0.93-0.95 but at 1.1-1.7x the size (and flicker), so one palette
/// per output it is.
enum GIFPalette {
    /// The dithering `paletteuse` applies.
    static let dither = "bayer:bayer_scale=5"

    /// The filters from the scaled picture to `pal8` pictures, with `colours` colours.
    static func filter(colours: Int) -> String {
        "split[reel_frames][reel_stats];[reel_stats]palettegen=max_colors=\(colours):stats_mode=full[reel_palette];"
            + "[reel_frames][reel_palette]paletteuse=dither=\(dither):diff_mode=rectangle"
    }
}

extension CompressionPlanner {
    /// The last filters of an animated image's picture (GIF: the palette; WebP: RGB),
    /// `nil` for video.
    var animatedImagePictureFilter: String? {
        switch config.fileType {
        case .gif: return GIFPalette.filter(colours: config.gifColours)
        // RGB, which libwebp turns into its own YUV: it assumes BT.601, so BT.709 pictures
        // given as YUV would shift colour, and its conversion is better than ours (SSIM in RGB
        // 0.928 against 0.904 on Megamind at quality 95, the same size).
        case .webp: return "format=bgra"
        case .mp4, .mov: return nil
        }
    }

    /// The encoder settings of an animated image at `frameRate`, `nil` for video.
    func animatedImageEncoderSettings(frameRate: Double) -> VideoEncoderSettings? {
        guard let encoder = config.fileType.animatedImageEncoder else { return nil }
        return .animatedImage(encoderName: encoder, quality: config.fileType == .webp ? config.webpQuality : nil,
                              frameRate: frameRate)
    }

    /// For an animated image, the encoder is checked and H.264 is returned: its path through
    /// the planner is the one an animated image takes (HDR tone-mapped to SDR, 8 bits).
    func animatedImageCodec() throws(ReelError) -> VideoCodec? {
        guard let encoder = config.fileType.animatedImageEncoder else { return nil }
        guard EncoderAvailability.has(encoder) else { throw .codecNotSupported(encoder) }
        return .h264
    }
}
