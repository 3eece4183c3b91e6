import CFFmpeg
import Foundation

/// Decodes the source audio stream, trims and resamples it through libavfilter
/// (`atrim`, `asetpts`, `aresample`, `aformat`), and encodes it in encoder-sized frames.
final class AudioStage {
    private let decoder: Decoder
    private let settings: AudioEncoderSettings
    private let range: ClosedSourceRange
    private let sink: MuxingSink
    private var graph: FilterGraph?
    private let decoded: Frame
    private let filtered: Frame
    private let packet: Packet
    private(set) var isDone = false
    private(set) var framesEncoded = 0
    private(set) var decodeErrors = 0

    init(input: InputFile, streamIndex: Int, settings: AudioEncoderSettings, range: ClosedSourceRange,
         sink: MuxingSink) throws(FFmpegFailure) {
        decoder = try Decoder(input: input, streamIndex: streamIndex)
        self.settings = settings
        self.range = range
        self.sink = sink
        decoded = try Frame()
        filtered = try Frame()
        packet = try Packet()
    }

    /// Decodes one packet (or flushes with `nil`) and moves what it can toward the muxer.
    func handle(_ input: Packet?) throws(FFmpegFailure) {
        guard !isDone || input == nil else { return }
        do {
            // A full decoder takes the packet once its frames are drained, unless the range
            // ended while draining: then the packet is not needed any more.
            while try !decoder.send(input) {
                try receiveFrames()
                if isDone { return }
            }
        } catch where error.code == reel_averror_invaliddata() {
            decodeErrors += 1
        }
        try receiveFrames()
        try drain()
    }

    /// Flushes decoder, filter and encoder into the muxer.
    func finish() throws(FFmpegFailure) {
        if !isDone { try handle(nil) }
        isDone = true
        if let graph {
            try graph.push(nil)
            try drain()
        }
        guard let encoder = sink.audioEncoder else { return }
        _ = try encoder.send(nil)
        try receivePackets(from: encoder)
    }

    private func receiveFrames() throws(FFmpegFailure) {
        while try decoder.receive(into: decoded) == .produced {
            defer { decoded.unreference() }
            if range.endsEarly, let pts = decoded.presentationTimestamp,
               MediaTime(value: pts * Int64(decoder.timeBase.num), timescale: decoder.timeBase.den) >= range.end {
                isDone = true
                return
            }
            let graph: FilterGraph
            if let existing = self.graph {
                graph = existing
            } else {
                graph = try makeGraph(for: decoded)
                self.graph = graph
            }
            try graph.push(decoded)
        }
    }

    /// Moves filtered frames into the encoder once the muxer is ready.
    func drain() throws(FFmpegFailure) {
        guard sink.isReady, let graph, let encoder = sink.audioEncoder else { return }
        while try graph.pull(into: filtered) == .produced {
            defer { filtered.unreference() }
            filtered.pointer.pointee.pts = av_rescale_q(filtered.pointer.pointee.pts, graph.outputTimeBase, encoder.timeBase)
            while try !encoder.send(filtered) { try receivePackets(from: encoder) }
            framesEncoded += 1
            try receivePackets(from: encoder)
        }
    }

    private func receivePackets(from encoder: Encoder) throws(FFmpegFailure) {
        while try encoder.receive(into: packet) == .produced {
            try sink.writeAudio(packet, timeBase: encoder.timeBase)
        }
    }

    private func makeGraph(for frame: Frame) throws(FFmpegFailure) -> FilterGraph {
        let source = FilterGraph.audioSourceArguments(for: frame, timeBase: decoder.timeBase)
        var chain: [String] = []
        if range.needsSeek || range.endsEarly {
            var trim = "atrim=start=\(seconds(range.start))"
            if range.endsEarly { trim += ":end=\(seconds(range.end))" }
            chain.append(trim)
        }
        if range.start != .zero { chain.append("asetpts=PTS-\(seconds(range.start))/TB") }
        chain.append("aresample=\(settings.sampleRate)")
        let outputFormat = av_get_sample_fmt_name(sink.audioEncoder?.sampleFormat ?? AV_SAMPLE_FMT_FLTP)
            .map { String(cString: $0) } ?? "fltp"
        chain.append("aformat=sample_fmts=\(outputFormat):channel_layouts=\(settings.channels == 1 ? "mono" : "stereo")")
        let graph = try FilterGraph(isVideo: false, sourceArguments: source, description: chain.joined(separator: ","), threads: 1)
        if let encoder = sink.audioEncoder, encoder.frameSize > 0 { graph.setAudioFrameSize(encoder.frameSize) }
        return graph
    }

    private func seconds(_ time: MediaTime) -> String { String(format: "%.9f", time.seconds) }
}
