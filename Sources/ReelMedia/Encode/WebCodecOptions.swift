internal import CFFmpeg
import Foundation
import ReelSupport

/// The AV1 (SVT-AV1) and VP9 (libvpx) encoders: their names, and how a `VideoEncoderSettings`
/// becomes their AVOptions in FFmpeg 5.1.
extension VideoEncoderSettings {
    /// SVT-AV1's FFmpeg encoder.
    package static let svtAV1Encoder = "libsvtav1"
    /// libvpx's VP9 encoder.
    package static let vp9Encoder = "libvpx-vp9"

    /// Whether the encoder is SVT-AV1 or libvpx-vp9.
    var isWebCodec: Bool { encoderName == Self.svtAV1Encoder || encoderName == Self.vp9Encoder }

    /// Whether the encoder does two passes with a statistics file (x264, x265, and libvpx, whose
    /// statistics FFmpeg hands over in memory and Reel keeps in the file); SVT-AV1 has no
    /// two-pass mode in FFmpeg 5.1, and libvpx's realtime deadline (the three fastest speeds)
    /// makes no first-pass statistics.
    package var encodesInTwoPasses: Bool {
        if isAnimatedImage || encoderName == Self.svtAV1Encoder { return false }
        return encoderName != Self.vp9Encoder || !speedPreset.hasPrefix("realtime")
    }

    /// Whether the encoder gives its first pass's statistics back in the codec context
    /// (`stats_out`, base64) and takes them there for the second (`stats_in`): libvpx.
    var passesStatisticsInMemory: Bool { encoderName == Self.vp9Encoder }
}

/// The AVOptions of the SVT-AV1 and libvpx-vp9 encoders.
enum WebCodecOptions {
    /// Puts `settings`' speed, rate factor and threading into `options`, and the bit rates
    /// into `context` where libvpx reads them differently from x264.
    static func apply(
        _ settings: VideoEncoderSettings, width: Int32,
        context: UnsafeMutablePointer<AVCodecContext>, into options: inout OpaquePointer?
    ) {
        if settings.encoderName == VideoEncoderSettings.svtAV1Encoder {
            svtAV1(settings, into: &options)
        } else {
            vp9(settings, width: width, context: context, into: &options)
        }
    }

    /// SVT-AV1 prints its configuration to stderr unless told otherwise (`SVT_LOG`, 1 = errors
    /// only); a value the user set is kept. Set once, before the first SVT-AV1 encoder opens
    /// (a static's initializer runs once, under a lock), not at every open.
    private static let quietSVTAV1: Void = { setenv("SVT_LOG", "1", 0) }()

    /// SVT-AV1: `preset` (0 slowest ... 13 fastest) and an integral `crf` (0...63). A CRF with
    /// a maximum rate is SVT-AV1's capped CRF; a bit rate without CRF is its VBR. The keyframe
    /// interval comes from `gop_size`; SVT-AV1 spreads itself over every core on its own.
    private static func svtAV1(_ settings: VideoEncoderSettings, into options: inout OpaquePointer?) {
        _ = quietSVTAV1
        av_dict_set(&options, "preset", settings.speedPreset, 0)
        if let crf = settings.constantRateFactor {
            av_dict_set(&options, "crf", String(Int(crf.rounded()).clamped(to: 1...63)), 0)
        }
    }

    /// libvpx-vp9: `deadline` and `cpu-used` from the speed (`good:3`), row multithreading and
    /// as many tile columns as the width allows (at least 256 pixels each) so that every core
    /// works. A CRF alone is constant quality (`b:v 0`); a CRF with a cap is libvpx's
    /// constrained quality, the cap as its bit rate; a bit rate alone is VBR.
    private static func vp9(
        _ settings: VideoEncoderSettings, width: Int32,
        context: UnsafeMutablePointer<AVCodecContext>, into options: inout OpaquePointer?
    ) {
        // libvpx takes every picture to last `ticks_per_frame` ticks of the time base (FFmpeg
        // 5.1). One tick of a fine time base (1/12288 s) made its first pass record 12 288 fps
        // and its second pass spend a 512th of the bits per picture (639 kB for a 1.45 MB
        // target on 30 s of 720p).
        let timeBase = context.pointee.time_base
        if timeBase.num > 0, timeBase.den > 0, settings.frameRate > 0 {
            let ticks = Double(timeBase.den) / (Double(timeBase.num) * settings.frameRate)
            context.pointee.ticks_per_frame = Int32(min(max(ticks.rounded(), 1), Double(Int32.max / max(timeBase.num, 1))))
        }
        if let (pass, path) = settings.twoPass {
            context.pointee.flags |= pass == 1 ? AV_CODEC_FLAG_PASS1 : AV_CODEC_FLAG_PASS2
            // The first pass's statistics, as it left them (a missing file makes libvpx refuse
            // to open: "No stats file for second pass"). libvpx decodes them while opening;
            // `releaseStatistics` frees them after.
            if pass == 2, let text = try? String(contentsOfFile: path, encoding: .utf8) {
                context.pointee.stats_in = av_strdup(text)
            }
        }
        let parts = settings.speedPreset.split(separator: ":")
        av_dict_set(&options, "deadline", parts.first.map(String.init) ?? "good", 0)
        av_dict_set(&options, "cpu-used", parts.count > 1 ? String(parts[1]) : "3", 0)
        av_dict_set(&options, "row-mt", "1", 0)
        av_dict_set(&options, "tile-columns", String(tileColumns(width: Int(width))), 0)
        if let crf = settings.constantRateFactor {
            av_dict_set(&options, "crf", String(Int(crf.rounded()).clamped(to: 0...63)), 0)
            context.pointee.bit_rate = Int64(settings.maxBitRate ?? 0)
            // libvpx has no VBV: the cap is its constrained-quality bit rate.
            context.pointee.rc_max_rate = 0
            context.pointee.rc_buffer_size = 0
        }
    }

    /// Frees the statistics a second pass was opened with (FFmpeg leaves `stats_in` to its user).
    static func releaseStatistics(of context: UnsafeMutablePointer<AVCodecContext>) {
        withUnsafeMutablePointer(to: &context.pointee.stats_in) { av_freep($0) }
    }

    /// Writes what a first pass left in `stats_out` to `path`, once the encoder is flushed.
    static func saveStatistics(of context: UnsafeMutablePointer<AVCodecContext>, to path: String) throws(MediaFailure) {
        guard let statistics = context.pointee.stats_out else {
            throw .failed(.encode, operation: "first pass", message: "the encoder left no statistics for the second pass", code: nil)
        }
        guard (try? String(cString: statistics).write(toFile: path, atomically: false, encoding: .utf8)) != nil else {
            throw .failed(.encode, operation: "first pass", message: "cannot write the statistics to \(path)", code: nil)
        }
    }

    /// log2 of the tile columns for a picture `width` wide: tiles at least 256 pixels wide
    /// (libvpx's own minimum), at most 4 of them (1080p would allow 8; row-mt covers the rest).
    static func tileColumns(width: Int) -> Int {
        var log2 = 0
        while log2 < 2, width >> (log2 + 1) >= 256 { log2 += 1 }
        return log2
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
