internal import CFFmpeg
import Foundation
import ReelSupport

/// One subtitle on a timeline (seconds) and its text as ASS dialogue lines
/// (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`, as FFmpeg's decoders give them).
struct SubtitleEvent: Equatable {
    var start: Double
    var end: Double
    var lines: [String]
}

/// What one text subtitle stream holds: its events on the source's timeline, the ASS header its
/// decoder builds (styles, which the encoder needs), and the stream's tags.
struct SubtitleContents {
    /// How long an event shows when neither the packet nor the event says (SRT always says).
    static let fallbackDuration = 4.0

    var events: [SubtitleEvent]
    var header: [UInt8]
    var tags: [(key: String, value: String)]

    /// Decodes every event of text subtitle stream `streamIndex` of `source`. Subtitles are
    /// small (a film's are a few hundred kilobytes), so they are read whole, in one pass over a
    /// file opened for them alone; bitmap events and empty ones are skipped.
    static func read(source: MediaInfo, streamIndex: Int) throws(MediaFailure) -> SubtitleContents {
        let input = try InputFile.reopen(source, keeping: [streamIndex], complete: false)
        guard let stream = input.stream(streamIndex), let parameters = stream.pointee.codecpar else {
            throw .failed(.decode, "open subtitle decoder", "no stream \(streamIndex)")
        }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .failed(.decode, "avcodec_find_decoder", "no decoder for the subtitles of stream \(streamIndex)")
        }
        let context = try CodecContext(codec: codec)
        try check(avcodec_parameters_to_context(context.pointer, parameters), .decode, "avcodec_parameters_to_context")
        context.pointer.pointee.pkt_timebase = stream.pointee.time_base
        try check(avcodec_open2(context.pointer, codec, nil), .decode, "avcodec_open2 (subtitles)")
        let timeBase = av_q2d(stream.pointee.time_base)
        var events: [SubtitleEvent] = []
        var open: [Int] = []  // events whose end the next event decides
        let packet = try Packet()
        while try input.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == streamIndex, let ticks = packet.presentationTimestamp else { continue }
            let time = Double(ticks) * timeBase
            guard let decoded = decode(packet, with: context.pointer) else { continue }
            for index in open where events[index].end <= events[index].start {
                events[index].end = max(time, events[index].start + 0.001)
            }
            open.removeAll()
            guard !decoded.lines.isEmpty else { continue }
            var event = SubtitleEvent(start: time + decoded.start, end: 0, lines: decoded.lines)
            if let end = decoded.end {
                event.end = time + end
            } else if packet.duration > 0 {
                event.end = time + Double(packet.duration) * timeBase
            } else {
                open.append(events.count)
            }
            events.append(event)
        }
        for index in open { events[index].end = events[index].start + fallbackDuration }
        let header = context.pointer.pointee.subtitle_header.map {
            Array(UnsafeBufferPointer(start: $0, count: Int(context.pointer.pointee.subtitle_header_size)))
        } ?? []
        let tags = ["language", "title", "handler_name"].compactMap { key -> (key: String, value: String)? in
            av_dict_get(stream.pointee.metadata, key, nil, 0).map { (key, String(cString: $0.pointee.value)) }
        }
        return SubtitleContents(events: events.sorted { $0.start < $1.start }, header: header, tags: tags)
    }

    /// The text lines of one packet's event and its display times relative to the packet
    /// (`end` is `nil` when the event leaves it open); `nil` when nothing decodes.
    private static func decode(
        _ packet: Packet, with context: UnsafeMutablePointer<AVCodecContext>
    ) -> (lines: [String], start: Double, end: Double?)? {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        guard avcodec_decode_subtitle2(context, &subtitle, &got, packet.pointer) >= 0, got != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        var lines: [String] = []
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects?[index], rect.pointee.type == SUBTITLE_ASS,
                  let ass = rect.pointee.ass else { continue }
            let line = String(cString: ass)
            if !dialogueText(line).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { lines.append(line) }
        }
        let end = subtitle.end_display_time
        return (lines, Double(subtitle.start_display_time) / 1000,
                end > 0 && end != UInt32.max ? Double(end) / 1000 : nil)
    }

    /// The text field of an ASS dialogue line (after its eight other fields).
    static func dialogueText(_ line: String) -> Substring {
        var rest = Substring(line)
        for _ in 0..<8 {
            guard let comma = rest.firstIndex(of: ",") else { return "" }
            rest = rest[rest.index(after: comma)...]
        }
        return rest
    }
}
