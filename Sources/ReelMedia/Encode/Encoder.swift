internal import CFFmpeg
import Foundation
import ReelSupport

/// Video encoder choices decided by the planner, as plain values.
package struct VideoEncoderSettings: Sendable, Equatable {
    /// FFmpeg encoder name: `libx264`, `libx265`, `libsvtav1` or `libvpx-vp9`.
    var encoderName: String
    /// The encoder's speed setting: an x264/x265 preset (`medium`), an SVT-AV1 preset (`8`),
    /// or libvpx's deadline and `cpu-used` (`good:3`).
    var speedPreset: String
    /// Constant rate factor; `nil` for average-bitrate mode.
    var constantRateFactor: Double?
    /// Target average bit rate (average mode) in bits per second.
    var averageBitRate: Int?
    /// VBV cap in bits per second (capped-quality and average modes).
    var maxBitRate: Int?
    /// VBV buffer in bits.
    var bufferSize: Int?
    /// Maximum distance between keyframes, in frames.
    var keyFrameInterval: Int
    /// Nominal output frame rate (for rate control and container metadata).
    var frameRate: Double
    /// Whether to produce 10-bit output (HEVC Main 10, AV1 10-bit, VP9 profile 2).
    var tenBit: Bool
    /// Two-pass rate control: which pass this encode is, with the encoder's statistics file
    /// (written by pass 1, read by pass 2); `nil` for a single pass.
    package var twoPass: (pass: Int, statsPath: String)? {
        get { pass.map { ($0, statsPath) } }
        set {
            pass = newValue?.pass
            statsPath = newValue?.statsPath ?? ""
        }
    }
    private var pass: Int?
    private var statsPath = ""
    /// An animated image's quality (libwebp's 0...100); `nil` for video encoders and GIF.
    package var imageQuality: Double?

    /// Creates the value from every field.
    package init(
        encoderName: String,
        speedPreset: String,
        constantRateFactor: Double?,
        averageBitRate: Int?,
        maxBitRate: Int?,
        bufferSize: Int?,
        keyFrameInterval: Int,
        frameRate: Double,
        tenBit: Bool
    ) {
        self.encoderName = encoderName
        self.speedPreset = speedPreset
        self.constantRateFactor = constantRateFactor
        self.averageBitRate = averageBitRate
        self.maxBitRate = maxBitRate
        self.bufferSize = bufferSize
        self.keyFrameInterval = keyFrameInterval
        self.frameRate = frameRate
        self.tenBit = tenBit
    }
}

/// An opened encoder: frames in, packets out.
final class Encoder {
    let context: CodecContext
    var pointer: UnsafeMutablePointer<AVCodecContext> { context.pointer }
    /// Where a first pass whose encoder keeps its statistics in memory (libvpx) writes them
    /// once flushed; `nil` otherwise.
    private var firstPassStatistics: String?


    /// Opens a video encoder for frames of the given geometry, format, color and time base.
    init(
        video settings: VideoEncoderSettings,
        width: Int32, height: Int32, pixelFormat: Int32, timeBase: AVRational,
        colorFrom frame: UnsafePointer<AVFrame>, hdr: HDRMetadata?, globalHeader: Bool
    ) throws(MediaFailure) {
        guard let codec = avcodec_find_encoder_by_name(settings.encoderName) else {
            throw .failed(.encode, "avcodec_find_encoder_by_name", "no encoder \(settings.encoderName)")
        }
        context = try CodecContext(codec: codec)
        let context = self.context.pointer
        context.pointee.width = width
        context.pointee.height = height
        context.pointee.pix_fmt = AVPixelFormat(rawValue: pixelFormat)
        context.pointee.time_base = timeBase
        context.pointee.framerate = av_d2q(settings.frameRate, 1_000_000)
        context.pointee.sample_aspect_ratio = frame.pointee.sample_aspect_ratio
        context.pointee.gop_size = Int32(settings.keyFrameInterval)
        context.pointee.thread_count = 0
        context.pointee.color_primaries = frame.pointee.color_primaries
        context.pointee.color_trc = frame.pointee.color_trc
        context.pointee.colorspace = frame.pointee.colorspace
        context.pointee.color_range = frame.pointee.color_range
        context.pointee.chroma_sample_location = frame.pointee.chroma_location
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        if let rate = settings.averageBitRate { context.pointee.bit_rate = Int64(rate) }
        if let rate = settings.maxBitRate { context.pointee.rc_max_rate = Int64(rate) }
        if let size = settings.bufferSize { context.pointee.rc_buffer_size = Int32(clamping: size) }

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if settings.isAnimatedImage {
            Self.animatedImageOptions(settings, into: &options)
        } else if settings.isWebCodec {
            WebCodecOptions.apply(settings, width: width, context: context, into: &options)
        } else {
            av_dict_set(&options, "preset", settings.speedPreset, 0)
        }
        if let crf = settings.constantRateFactor, !settings.isWebCodec {
            av_dict_set(&options, "crf", String(format: "%.2f", crf), 0)
        }
        if settings.isAnimatedImage || settings.isWebCodec {
            // GIF, WebP, AV1 and VP9 take no x264/x265 parameters.
        } else if settings.encoderName == "libx265" {
            var parameters = Self.x265Parameters(for: settings)
            if let hdr { parameters += HDRSideData.x265Parameters(for: hdr) }
            av_dict_set(&options, "x265-params", parameters.joined(separator: ":"), 0)
            context.pointee.codec_tag = reel_mktag(0x68, 0x76, 0x63, 0x31)  // "hvc1", what Apple players want
        } else {
            // Keep x264 from inserting keyframes closer than the interval allows only where scenes cut.
            // Stitchable headers do not depend on the rate factor (the PPS's initial QP), so the
            // chunks of a chunked encode, each at its own rate, join into one valid stream.
            av_dict_set(&options, "x264-params", "keyint=\(settings.keyFrameInterval):stitchable=1", 0)
            if let (pass, stats) = settings.twoPass {
                context.pointee.flags |= pass == 1 ? AV_CODEC_FLAG_PASS1 : AV_CODEC_FLAG_PASS2
                av_dict_set(&options, "stats", stats, 0)
            }
        }
        defer { if settings.passesStatisticsInMemory { WebCodecOptions.releaseStatistics(of: context) } }
        try check(avcodec_open2(context, codec, &options), .encode, "avcodec_open2 (\(settings.encoderName))")
        if settings.passesStatisticsInMemory, let (pass, path) = settings.twoPass, pass == 1 { firstPassStatistics = path }
    }

    /// Opens an AAC (or other audio) encoder.
    init(audioEncoder name: String, sampleRate: Int32, channels: Int32, bitRate: Int, globalHeader: Bool) throws(MediaFailure) {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw .failed(.encode, "avcodec_find_encoder_by_name", "no encoder \(name)")
        }
        context = try CodecContext(codec: codec)
        let context = self.context.pointer
        context.pointee.sample_fmt = codec.pointee.sample_fmts?.pointee ?? AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = sampleRate
        context.pointee.ch_layout = channels == 1 ? reel_channel_layout_mono() : reel_channel_layout_stereo()
        context.pointee.bit_rate = Int64(bitRate)
        context.pointee.time_base = av_make_q(1, sampleRate)
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try check(avcodec_open2(context, codec, nil), .encode, "avcodec_open2 (\(name))")
    }

    /// Opens a still-image encoder (`mjpeg` at visually lossless quality, or `png`) for pictures
    /// like `image`.
    init(image encoderName: String, for image: Frame) throws(MediaFailure) {
        guard let codec = avcodec_find_encoder_by_name(encoderName) else {
            throw .failed(.encode, "avcodec_find_encoder_by_name", "no encoder \(encoderName)")
        }
        context = try CodecContext(codec: codec)
        let context = self.context.pointer
        context.pointee.width = image.width
        context.pointee.height = image.height
        context.pointee.pix_fmt = AVPixelFormat(rawValue: image.format)
        context.pointee.time_base = av_make_q(1, 25)
        if encoderName == "mjpeg" {
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            // FF_QP2LAMBDA (118) times quantizer 2: visually lossless JPEG.
            context.pointee.global_quality = 118 * 2
            image.pointer.pointee.quality = 118 * 2
        }
        try check(avcodec_open2(context, codec, nil), .encode, "avcodec_open2 (\(encoderName))")
    }

    /// The `x265-params` of `settings` (HDR metadata apart).
    static func x265Parameters(for settings: VideoEncoderSettings) -> [String] {
        // No settings SEI in the headers: it names the rate factor, so chunks of a chunked
        // encode at different rates would not share them.
        var parameters = ["log-level=error", "keyint=\(settings.keyFrameInterval)", "info=0"]
        // FFmpeg 5.1's libx265 wrapper ignores the pass flags: x265 takes them as parameters.
        if let (pass, stats) = settings.twoPass { parameters += ["pass=\(pass)", "stats=\(stats)"] }
        // Under a VBV cap, x265 3.5 starves the keyframes of busy stretches (25 dB against 35
        // without the cap on the 1080p benchmark clip); letting the cap raise the rate factor by
        // at most 4 keeps them near 31 dB for 0.5% more bytes.
        if let crf = settings.constantRateFactor, settings.maxBitRate != nil {
            parameters.append(String(format: "crf-max=%.2f", crf + vbvRateFactorHeadroom))
        }
        return parameters
    }

    /// Changes the constant rate factor from the next frame on (libx264 reconfigures itself
    /// between frames; FFmpeg 5.1's libx265 cannot).
    func setConstantRateFactor(_ crf: Double) throws(MediaFailure) {
        try check(av_opt_set_double(pointer.pointee.priv_data, "crf", crf, 0), .encode, "av_opt_set_double (crf)")
    }

    /// How far x265's VBV may raise the rate factor above the CRF.
    static let vbvRateFactorHeadroom = 4.0

    var timeBase: AVRational { pointer.pointee.time_base }
    var frameSize: Int32 { pointer.pointee.frame_size }
    var sampleFormat: AVSampleFormat { pointer.pointee.sample_fmt }
    var sampleRate: Int32 { pointer.pointee.sample_rate }

    /// The encode drain, the one place frames go into an encoder: sends `frame` (`nil` starts
    /// the end-of-stream flush) and hands every packet the encoder then has ready to `write`,
    /// one at a time in `packet` (the muxer takes its data; anything left is unreferenced). A
    /// full encoder gets its packets taken first and the frame sent again.
    func encode(
        _ frame: Frame?, into packet: Packet, _ write: (Packet) throws(MediaFailure) -> Void
    ) throws(MediaFailure) {
        while true {
            let result = avcodec_send_frame(pointer, frame?.pointer)
            if result == reel_averror_eagain() {
                try receivePackets(into: packet, write)
                continue
            }
            if !(frame == nil && result == reel_averror_eof()) { try check(result, .encode, "avcodec_send_frame") }
            try receivePackets(into: packet, write)
            if frame == nil, let path = firstPassStatistics { try WebCodecOptions.saveStatistics(of: pointer, to: path) }
            return
        }
    }

    private func receivePackets(into packet: Packet, _ write: (Packet) throws(MediaFailure) -> Void) throws(MediaFailure) {
        while try codecStep(avcodec_receive_packet(pointer, packet.pointer), .encode, "avcodec_receive_packet") == .produced {
            defer { packet.unreference() }
            try write(packet)
        }
    }
}

/// Encoder presence in this FFmpeg build.
package enum EncoderAvailability {
    /// Whether an encoder named `name` (e.g. `libx265`) exists.
    package static func has(_ name: String) -> Bool { avcodec_find_encoder_by_name(name) != nil }
}
