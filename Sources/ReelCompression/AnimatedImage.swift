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
        case .mp4, .mov, .webm, .mkv: return nil
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
/// The palette exists only once the last picture is in, so every picture waits in the graph
/// until then: measured 466 MB at the peak for 30 s at 480x270, 15 fps (125 MB for the same
/// as MP4), about 0.75 MB a picture. An output whose pictures would take more than
/// `memoryBudget` gets a palette per picture instead (`stats_mode=single`, `new=1`), which
/// holds none back, for a larger file (1.4-3.0x on the pieces below, SSIM +0.004-0.013).
///
/// Measured on 8 s pieces of Big Buck Bunny and Megamind at 15 fps, 480 px (Benchmarks/gif/README.md):
/// against the error-diffusion dithering of FFmpeg's usual recipe (`sierra2_4a`), ordered
/// dithering keeps its pattern still from picture to picture, so unchanged areas stay unchanged
/// and compress; the GIF is 20-54% smaller at a higher SSIM. Per-picture palettes (`stats_mode=
/// single`, `new=1`) gain 0.004-0.013 SSIM for 1.4-3.0x the size (and colours that flicker),
/// so one palette per output it is. No dithering scores a little higher still (0.946 against
/// 0.943 on Big Buck Bunny) but bands skies and gradients.
enum GIFPalette {
    /// The dithering `paletteuse` applies.
    static let dither = "bayer:bayer_scale=5"

    /// Bytes the pictures held for one palette may take: 1.5 GB, about 60 s at 480x270, 15 fps.
    static let memoryBudget = 1_500_000_000.0
    /// Bytes one held picture takes per pixel, as measured (BGRA and the graph's overhead).
    static let bytesPerPixel = 6.0

    /// The filters from the scaled picture to `pal8` pictures, with `colours` colours, for an
    /// output of `frames` pictures of `pixels` pixels each.
    static func filter(colours: Int, frames: Double, pixels: Int) -> String {
        let perPicture = frames * Double(pixels) * bytesPerPixel > memoryBudget
        return "split[reel_frames][reel_stats];[reel_stats]palettegen=max_colors=\(colours):"
            + "stats_mode=\(perPicture ? "single" : "full")[reel_palette];"
            + "[reel_frames][reel_palette]paletteuse=dither=\(dither):diff_mode=rectangle\(perPicture ? ":new=1" : "")"
    }
}

extension CompressionPlanner {
    /// The last filters of an animated image's picture (GIF: the palette; WebP: RGB) for
    /// `frames` pictures of `pixels` pixels, `nil` for video.
    func animatedImagePictureFilter(frames: Double, pixels: Int) -> String? {
        switch config.fileType {
        case .gif: return GIFPalette.filter(colours: config.gifColours, frames: frames, pixels: pixels)
        // RGB, which libwebp turns into its own YUV: it assumes BT.601, so BT.709 pictures
        // given as YUV would shift colour, and its conversion is better than ours (SSIM in RGB
        // 0.928 against 0.904 on Megamind at quality 95, the same size).
        case .webp: return "format=bgra"
        case .mp4, .mov, .webm, .mkv: return nil
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
