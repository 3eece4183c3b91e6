internal import CFFmpeg
import Foundation
import ReelSupport

/// An open muxer writing one output file: streams are added, then the header, packets, trailer.
final class OutputFile {
    let path: String
    private let context: UnsafeMutablePointer<AVFormatContext>
    private var ioOpened = false
    private var headerWritten = false
    private var trailerWritten = false

    /// Creates a muxer for `formatName` (`mp4` or `mov`) writing to `path`.
    init(path: String, formatName: String) throws(MediaFailure) {
        FFmpegLogging.silence()
        self.path = path
        var created: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&created, nil, formatName, path), .mux, "avformat_alloc_output_context2")
        context = try allocated(created, "avformat_alloc_output_context2")
    }

    deinit {
        if ioOpened { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// Whether encoders must put codec headers in extradata (mp4/mov do).
    var needsGlobalHeader: Bool {
        guard let format = context.pointee.oformat else { return false }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// Adds a stream fed by `encoder`; returns its index.
    func addStream(for encoder: Encoder) throws(MediaFailure) -> Int {
        let stream = try allocated(avformat_new_stream(context, nil), "avformat_new_stream")
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.pointer), .mux,
                  "avcodec_parameters_from_context")
        stream.pointee.time_base = encoder.timeBase
        if encoder.pointer.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            stream.pointee.avg_frame_rate = encoder.pointer.pointee.framerate
        }
        return Int(stream.pointee.index)
    }

    /// Adds a stream fed by the opened subtitle encoder `encoder`; returns its index.
    func addStream(subtitleEncoder encoder: CodecContext) throws(MediaFailure) -> Int {
        let stream = try allocated(avformat_new_stream(context, nil), "avformat_new_stream")
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.pointer), .mux,
                  "avcodec_parameters_from_context")
        stream.pointee.time_base = encoder.pointer.pointee.time_base
        return Int(stream.pointee.index)
    }

    /// Adds a stream that receives `source`'s packets unchanged (codec parameters, codec tag
    /// when the container accepts it, and side data such as rotation and HDR metadata).
    /// `parameters` replace the stream's own codec parameters when a bitstream filter changed them.
    func addStream(
        copying source: UnsafeMutablePointer<AVStream>, parameters: UnsafePointer<AVCodecParameters>? = nil
    ) throws(MediaFailure) -> Int {
        let stream = try allocated(avformat_new_stream(context, nil), "avformat_new_stream")
        guard let copied = parameters ?? UnsafePointer(source.pointee.codecpar) else {
            throw .failed(.mux, "avcodec_parameters_copy", "the stream has no codec parameters")
        }
        try check(avcodec_parameters_copy(stream.pointee.codecpar, copied), .mux, "avcodec_parameters_copy")
        let tag = copied.pointee.codec_tag
        if let tags = context.pointee.oformat?.pointee.codec_tag,
           av_codec_get_id(tags, tag) != copied.pointee.codec_id {
            stream.pointee.codecpar.pointee.codec_tag = 0
        }
        stream.pointee.time_base = source.pointee.time_base
        stream.pointee.avg_frame_rate = source.pointee.avg_frame_rate
        for index in 0..<Int(source.pointee.nb_side_data) {
            guard let entry = source.pointee.side_data?[index],
                  let data = av_stream_new_side_data(stream, entry.type, entry.size) else { continue }
            data.update(from: entry.data, count: entry.size)
        }
        return Int(stream.pointee.index)
    }

    /// Container tags of `input` that describe the recording (creation time, title, location,
    /// artist...), not the technical ones the muxer writes itself (brands, encoder).
    func copyMetadata(from input: InputFile) {
        av_dict_copy(&context.pointee.metadata, input.context.pointee.metadata, 0)
        for key in ["major_brand", "minor_version", "compatible_brands", "encoder"] {
            av_dict_set(&context.pointee.metadata, key, nil, 0)
        }
    }

    /// A source stream's language, title and handler name, onto output stream `index`.
    func copyStreamMetadata(from source: UnsafeMutablePointer<AVStream>, to index: Int) {
        guard let stream = stream(index) else { return }
        for key in ["language", "title", "handler_name"] {
            if let entry = av_dict_get(source.pointee.metadata, key, nil, 0) {
                av_dict_set(&stream.pointee.metadata, key, entry.pointee.value, 0)
            }
        }
    }

    /// Sets the tag `key` of output stream `index`.
    func setStreamTag(_ key: String, _ value: String, streamIndex index: Int) {
        guard let stream = stream(index) else { return }
        av_dict_set(&stream.pointee.metadata, key, value, 0)
    }

    /// Writes a display matrix so players rotate the picture `clockwiseDegrees` on display.
    func setRotation(_ clockwiseDegrees: Int, streamIndex: Int) {
        guard clockwiseDegrees % 360 != 0, let stream = stream(streamIndex),
              let raw = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * MemoryLayout<Int32>.size)
        else { return }
        let matrix = UnsafeMutableRawPointer(raw).bindMemory(to: Int32.self, capacity: 9)
        av_display_rotation_set(matrix, Double(clockwiseDegrees))
    }

    /// Writes HDR static metadata as stream side data (`mdcv`/`clli` boxes).
    func setHDRMetadata(_ metadata: HDRMetadata, streamIndex: Int) {
        guard let stream = stream(streamIndex) else { return }
        HDRSideData.attach(metadata, to: stream)
    }

    /// Opens the file and writes the header. `fastStart` moves the index to the front at the end.
    func writeHeader(fastStart: Bool) throws(MediaFailure) {
        if let format = context.pointee.oformat, format.pointee.flags & AVFMT_NOFILE == 0 {
            try check(avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE), .mux, "avio_open")
            ioOpened = true
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if fastStart { av_dict_set(&options, "movflags", "+faststart", 0) }
        if let name = context.pointee.oformat?.pointee.name, AnimatedImageMuxing.isAnimatedImage(String(cString: name)) {
            AnimatedImageMuxing.headerOptions(into: &options)
        }
        try check(avformat_write_header(context, &options), .mux, "avformat_write_header")
        headerWritten = true
    }

    /// The stream's time base after the header fixed it.
    func timeBase(ofStream index: Int) -> AVRational {
        stream(index)?.pointee.time_base ?? av_make_q(1, 90_000)
    }

    /// Rescales `packet` from `sourceTimeBase` and writes it interleaved; the packet is consumed.
    func write(_ packet: Packet, streamIndex: Int, from sourceTimeBase: AVRational) throws(MediaFailure) {
        packet.streamIndex = streamIndex
        av_packet_rescale_ts(packet.pointer, sourceTimeBase, timeBase(ofStream: streamIndex))
        let dts = packet.pointer.pointee.dts
        let code = av_interleaved_write_frame(context, packet.pointer)
        if code == reel_averror_einval(), dts != reel_nopts_value(), let last = lastDecodeTimes[streamIndex], dts <= last {
            // The muxer only says "Invalid argument"; the cause is times that go back.
            let base = timeBase(ofStream: streamIndex)
            let seconds = { (ticks: Int64) in String(format: "%.3f", Double(ticks) * av_q2d(base)) }
            throw .failed(.mux, "av_interleaved_write_frame",
                          "stream \(streamIndex)'s packet times stop increasing at \(seconds(last)) s (the next is timed "
                          + "\(seconds(dts)) s), which the container cannot hold: the source's timestamps overlap there (a copy "
                          + "keeps them; re-encoding puts them in order)")
        }
        try check(code, .mux, "av_interleaved_write_frame")
        if dts != reel_nopts_value() { lastDecodeTimes[streamIndex] = dts }
    }

    /// The decode time of the last packet written to each stream (in the stream's time base).
    private var lastDecodeTimes: [Int: Int64] = [:]

    /// Flushes interleaving queues and writes the trailer exactly once (faststart rewrites here).
    func finish() throws(MediaFailure) {
        guard headerWritten, !trailerWritten else { return }
        trailerWritten = true
        try check(av_write_trailer(context), .mux, "av_write_trailer")
        if ioOpened {
            avio_closep(&context.pointee.pb)
            ioOpened = false
        }
    }

    private func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int(context.pointee.nb_streams), let streams = context.pointee.streams else {
            return nil
        }
        return streams[index]
    }
}
