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
        guard let codec = DecoderChoice.decoder(for: parameters.pointee.codec_id) else {
            let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw .failed(.decode, "avcodec_find_decoder", "no decoder for codec \(name)")
        }
        context = try CodecContext(codec: codec)
        self.streamIndex = streamIndex
        timeBase = stream.pointee.time_base
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        ticksPerFrame = rate.num > 0 && rate.den > 0
            ? max(av_rescale_q(1, av_make_q(rate.den, rate.num), stream.pointee.time_base), 1) : 1
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
        let format = input.context.pointee.iformat.map { String(cString: $0.pointee.name) }
        if format == "avi", parameters.pointee.codec_id == AV_CODEC_ID_MPEG4 {
            presentationTiming = try PacketPipe(streamIndex: streamIndex, parameters: parameters,
                                                timeBase: stream.pointee.time_base, decodeOrderOnly: true)
        }
    }

    /// Opens a decoder for what `encoder` writes (its packets, in its time base), on the
    /// calling thread: a round trip that hears the encoded sound as a player will.
    init(decoding encoder: Encoder) throws(MediaFailure) {
        var parameters = avcodec_parameters_alloc()
        defer { avcodec_parameters_free(&parameters) }
        guard let parameters else { throw .outOfMemory(operation: "avcodec_parameters_alloc") }
        try check(avcodec_parameters_from_context(parameters, encoder.pointer), .decode, "avcodec_parameters_from_context")
        guard let codec = DecoderChoice.decoder(for: parameters.pointee.codec_id) else {
            throw .failed(.decode, "avcodec_find_decoder", "no decoder for what the encoder writes")
        }
        context = try CodecContext(codec: codec)
        streamIndex = -1
        timeBase = encoder.timeBase
        ticksPerFrame = 1
        let codecContext = context.pointer
        try check(avcodec_parameters_to_context(codecContext, parameters), .decode, "avcodec_parameters_to_context")
        codecContext.pointee.pkt_timebase = encoder.timeBase
        codecContext.pointee.thread_count = 1
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

    /// Whether frames without any timestamp (raw elementary streams such as .h264) get one: the
    /// previous frame's plus one frame at the stream's rate, counting from 0 after a flush, as
    /// ffmpeg does. Only right when every frame is decoded (nothing skipped).
    var timesUntimedFrames = false
    private let ticksPerFrame: Int64
    private var lastStamp: Int64?
    /// MPEG-4 Part 2 from AVI: packets get presentation times before decoding. Without them the
    /// decoder's guess is the time of the packet sent when a picture comes out, one slot late
    /// behind packed B frames (Megamind.avi's 270 pictures would span 1/24 s to 11.303 s).
    private var presentationTiming: PacketPipe?

    /// How far before its time the last `frameOnScreen` had to start decoding (its seeks land
    /// too late, or on pictures that cannot be decoded, in files without an index).
    var lastSeekLead = 0.0

    /// Decode errors in a row after which the decoder is taken as failing, not the data.
    static let rejectionsInARow = 64

    /// Packets the decoder rejected as corrupt; each is skipped and decoding goes on.
    private(set) var corruptPackets = 0
    /// Decoded frames the decoder flagged as damaged (concealed errors, missing references).
    private(set) var damagedFrames = 0
    /// Decoded pictures timed at or before the picture before them, left out: files joined
    /// without re-timing (ffmpeg's concat demuxer over recordings of different rates) have
    /// them, and they cannot be shown (the ffmpeg CLI drops them too). Every reader of a video
    /// (transcode, analysis, framing, stills) sees the same pictures so.
    private(set) var mistimedFrames = 0
    private var lastShown: Int64?

    /// The decode pump, the one place packets go into a decoder: sends `packet` (`nil` sends the
    /// end-of-stream flush) and hands every frame the decoder then has ready to `body`, one at a
    /// time in `frame`, which is unreferenced after `body` returns (take it with `movedOut()`
    /// to keep it). A full decoder gets its frames taken first and the packet sent again. A
    /// packet rejected as corrupt is counted in `corruptPackets` and skipped; frames flagged
    /// damaged are counted in `damagedFrames` and still handed over; pictures timed at or before
    /// the one handed over before them are counted in `mistimedFrames` and left out (after a
    /// `flushBuffers()` the order starts again). Returns `false` when `body`
    /// asked to stop; the frames after it stay in the decoder until `flushBuffers()`.
    @discardableResult
    func decode(
        _ packet: Packet?, into frame: Frame, _ body: (Frame) throws(MediaFailure) -> Bool
    ) throws(MediaFailure) -> Bool {
        guard let presentationTiming else { return try send(packet, into: frame, body) }
        // The caller keeps its packet (it may hand it on): the pipe takes a reference.
        for timed in try presentationTiming.push(try packet?.reference()) {
            guard try send(timed, into: frame, body) else { return false }
        }
        return packet == nil ? try send(nil, into: frame, body) : true
    }

    private func send(
        _ packet: Packet?, into frame: Frame, _ body: (Frame) throws(MediaFailure) -> Bool
    ) throws(MediaFailure) -> Bool {
        while true {
            let result = avcodec_send_packet(codecContext, packet?.pointer)
            if result == reel_averror_eagain() {
                guard try receiveFrames(into: frame, body) else { return false }
                continue
            }
            if result == reel_averror_invaliddata() {
                corruptPackets += 1
            } else if result != reel_averror_eof() {
                try check(result, .decode, "avcodec_send_packet")
            }
            return try receiveFrames(into: frame, body)
        }
    }

    private func receiveFrames(
        into frame: Frame, _ body: (Frame) throws(MediaFailure) -> Bool
    ) throws(MediaFailure) -> Bool {
        var rejectedInARow = 0
        while true {
            let received = avcodec_receive_frame(codecContext, frame.pointer)
            if received == reel_averror_invaliddata(), rejectedInARow < Self.rejectionsInARow {
                // With frame threads a packet's decode error comes out here, a call or more
                // later than its sending: the packet is skipped like one rejected when sent.
                corruptPackets += 1
                rejectedInARow += 1
                continue
            }
            guard try codecStep(received, .decode, "avcodec_receive_frame") == .produced else { break }
            rejectedInARow = 0
            defer { frame.unreference() }
            if frame.isDamaged { damagedFrames += 1 }
            if timesUntimedFrames {
                if let stamp = frame.presentationTimestamp {
                    lastStamp = stamp
                } else {
                    let stamp = lastStamp.map { $0 + ticksPerFrame } ?? 0
                    frame.stamp(stamp)
                    lastStamp = stamp
                }
            }
            if isVideo, let stamp = frame.presentationTimestamp {
                if let lastShown, stamp <= lastShown {
                    mistimedFrames += 1
                    continue
                }
                lastShown = stamp
            }
            guard try body(frame) else { return false }
        }
        return true
    }

    /// Starts counting, from 0, the errors this decoder logs: a missing reference is concealed
    /// with another picture and only logged, the frame not flagged. On one decoding thread the
    /// log is the decoder's own; frame threads log through copies of it, which are not counted.
    func countLoggedErrors() {
        FFmpegLogging.watchErrors(of: UnsafeMutableRawPointer(codecContext))
    }

    /// The errors logged since `countLoggedErrors()` (0 when not counting).
    var loggedErrors: Int { FFmpegLogging.errors(of: UnsafeMutableRawPointer(codecContext)) }

    deinit {
        // Its context's address may be reused by another decoder.
        FFmpegLogging.unwatch(UnsafeMutableRawPointer(codecContext))
    }

    /// Drops buffered frames after a seek.
    func flushBuffers() {
        avcodec_flush_buffers(codecContext)
        presentationTiming?.reset()
        lastStamp = nil
        lastShown = nil
    }
}
