internal import CFFmpeg
import Foundation
import ReelSupport

/// One source text subtitle stream carried into the output as the container's text subtitles
/// (`mov_text` in MP4 and MOV, WebVTT in WebM, SRT in Matroska): its events are read up front,
/// then each kept range's events are moved onto the output timeline (cut at the range's edges)
/// and encoded, in output order.
final class SubtitleTrack {
    private let contents: SubtitleContents
    private let encoder: CodecContext
    private var outputIndex: Int?
    private var scheduled: [SubtitleEvent] = []
    /// The last written start, in milliseconds: starts must increase strictly.
    private var lastStart: Int64 = -1
    private let packet: Packet
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private static let timeBase = av_make_q(1, 1000)

    /// Reads text subtitle stream `streamIndex` of `source` and opens the encoder of the
    /// `formatName` muxer's text subtitles (`encoderName(forFormat:)`) with its styles.
    init(source: MediaInfo, streamIndex: Int, formatName: String) throws(MediaFailure) {
        contents = try SubtitleContents.read(source: source, streamIndex: streamIndex)
        let name = Self.encoderName(forFormat: formatName)
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw .failed(.encode, "avcodec_find_encoder_by_name", "no \(name) encoder")
        }
        encoder = try CodecContext(codec: codec)
        let context = encoder.pointer
        context.pointee.time_base = Self.timeBase
        let header = contents.header.isEmpty ? Array(Self.defaultHeader.utf8) : contents.header
        guard let copy = av_mallocz(header.count + 1)?.assumingMemoryBound(to: UInt8.self) else {
            throw .outOfMemory(operation: "av_mallocz")
        }
        copy.update(from: header, count: header.count)
        context.pointee.subtitle_header = copy
        context.pointee.subtitle_header_size = Int32(header.count)
        try check(avcodec_open2(context, codec, nil), .encode, "avcodec_open2 (\(name))")
        packet = try Packet()
    }

    /// The text subtitle encoder of a muxer: WebVTT for WebM (the only text it holds), SRT for
    /// Matroska (what most players show), `mov_text` for MP4 and MOV. All take the decoded
    /// events as ASS lines.
    static func encoderName(forFormat formatName: String) -> String {
        switch formatName {
        case "webm": return "webvtt"
        case "matroska": return "srt"
        default: return "mov_text"
        }
    }

    /// Adds the output stream (with the source's language, title and handler name when `keepingTags`).
    func addStream(to output: OutputFile, keepingTags: Bool) throws(MediaFailure) {
        let index = try output.addStream(subtitleEncoder: encoder)
        outputIndex = index
        guard keepingTags else { return }
        for tag in contents.tags { output.setStreamTag(tag.key, tag.value, streamIndex: index) }
    }

    /// Schedules the events of `range` (source times) for the output span that starts at
    /// `outputOffset`; an event is cut at the range's edges and, with a crossfade, at
    /// `outputEnd`, where the next range's events take over.
    func schedule(_ range: ClosedSourceRange, outputOffset: Double, outputEnd: Double?) {
        let start = range.start.seconds, end = range.end.seconds
        let last = min(outputEnd ?? .infinity, outputOffset + end - start)
        for event in contents.events where event.end > start && event.start < end {
            let from = outputOffset + max(event.start, start) - start
            let to = min(outputOffset + min(event.end, end) - start, last)
            if to - from >= 0.001 { scheduled.append(SubtitleEvent(start: from, end: to, lines: event.lines)) }
        }
    }

    /// Encodes and writes the scheduled events (after the output's header).
    func writeScheduled(to output: OutputFile) throws(MediaFailure) {
        guard let index = outputIndex else { return }
        for event in scheduled {
            var start = Int64((event.start * 1000).rounded())
            if start <= lastStart { start = lastStart + 1 }
            let end = max(Int64((event.end * 1000).rounded()), start + 1)
            let size = try encode(event.lines)
            guard size > 0 else { continue }
            try check(av_new_packet(packet.pointer, Int32(size)), .encode, "av_new_packet")
            buffer.withUnsafeBufferPointer { bytes in
                if let source = bytes.baseAddress { packet.pointer.pointee.data.update(from: source, count: size) }
            }
            packet.pts = start
            packet.dts = start
            packet.duration = end - start
            packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY
            lastStart = start
            try output.write(packet, streamIndex: index, from: Self.timeBase)
            packet.unreference()
        }
        scheduled.removeAll()
    }

    /// The encoded sample of one event's lines, in `buffer`; its size.
    private func encode(_ lines: [String]) throws(MediaFailure) -> Int {
        let copies = lines.prefix(16).compactMap { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer<CChar>?($0) }
        let count = Int32(pointers.count)
        let size = buffer.count
        let written = pointers.withUnsafeBufferPointer { lines in
            buffer.withUnsafeMutableBufferPointer { output in
                reel_encode_ass_event(encoder.pointer, lines.baseAddress, count, output.baseAddress, Int32(size))
            }
        }
        return Int(try check(written, .encode, "avcodec_encode_subtitle"))
    }

    /// The header of FFmpeg's own text decoders, for a stream whose decoder gave none.
    private static let defaultHeader = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 384
        PlayResY: 288

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """
}
