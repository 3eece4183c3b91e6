internal import CFFmpeg
import ReelSupport

/// An opened decoder for one stream of an `InputFile`: packets in, frames out.
final class Decoder {
    let context: CodecContext
    let streamIndex: Int
    /// The stream's time base; decoded frame timestamps are in it.
    let timeBase: AVRational
    private var codecContext: UnsafeMutablePointer<AVCodecContext> { context.pointer }

    /// Opens a decoder for `streamIndex`. `cheap` trades exactness for speed (analysis passes);
    /// `threads` 0 lets FFmpeg use every core, 1 keeps the decoder on the calling thread.
    init(input: InputFile, streamIndex: Int, cheap: Bool = false, threads: Int32 = 0) throws(MediaFailure) {
        guard let stream = input.stream(streamIndex), let parameters = stream.pointee.codecpar else {
            throw .failed(.decode, "open decoder", "no stream \(streamIndex)")
        }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw .failed(.decode, "avcodec_find_decoder", "no decoder for codec \(name)")
        }
        context = try CodecContext(codec: codec)
        self.streamIndex = streamIndex
        timeBase = stream.pointee.time_base
        let codecContext = context.pointer
        try check(avcodec_parameters_to_context(codecContext, parameters), .decode, "avcodec_parameters_to_context")
        codecContext.pointee.pkt_timebase = stream.pointee.time_base
        codecContext.pointee.thread_count = threads
        codecContext.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        if cheap {
            codecContext.pointee.skip_loop_filter = AVDISCARD_ALL
            codecContext.pointee.flags2 |= AV_CODEC_FLAG2_FAST
        }
        try check(avcodec_open2(codecContext, codec, nil), .decode, "avcodec_open2 (decoder)")
    }

    var isVideo: Bool { codecContext.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
    var width: Int32 { codecContext.pointee.width }
    var height: Int32 { codecContext.pointee.height }
    var pixelFormat: AVPixelFormat { codecContext.pointee.pix_fmt }
    var sampleRate: Int32 { codecContext.pointee.sample_rate }
    var channelCount: Int32 { codecContext.pointee.ch_layout.nb_channels }

    /// Which frames the decoder may skip (e.g. non-reference frames in a coarse pass).
    func setSkipFrames(_ discard: AVDiscard) { codecContext.pointee.skip_frame = discard }

    /// Sends a packet; `nil` sends the end-of-stream flush. Returns `false` when the decoder is
    /// full (receive frames first, then send the same packet again).
    func send(_ packet: Packet?) throws(MediaFailure) -> Bool {
        let result = avcodec_send_packet(codecContext, packet?.pointer)
        if result == reel_averror_eagain() { return false }
        if result == reel_averror_eof() { return true }
        try check(result, .decode, "avcodec_send_packet")
        return true
    }

    /// Receives the next decoded frame into `frame`.
    func receive(into frame: Frame) throws(MediaFailure) -> CodecStep {
        try codecStep(avcodec_receive_frame(codecContext, frame.pointer), .decode, "avcodec_receive_frame")
    }

    /// Drops buffered frames after a seek.
    func flushBuffers() { avcodec_flush_buffers(codecContext) }
}
