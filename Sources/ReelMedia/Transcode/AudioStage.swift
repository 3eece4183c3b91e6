internal import CFFmpeg
import Foundation
import ReelSupport

/// Decodes one source audio stream and encodes the parts inside each range, joined end to end.
///
/// Each range gets its own small graph (`atrim`, `asetpts` onto the output timeline, short
/// `afade`s at joins, `aresample`, `aformat`); a persistent framing graph then cuts the joined
/// sound into encoder-sized frames, so frame boundaries do not restart at every join.
final class AudioStage {
    /// Length of the fade at each join, so cuts do not click.
    static let joinFade = 0.02

    private let decoder: Decoder
    private let settings: AudioEncoderSettings
    private let sink: MuxingSink
    /// The track's position in the plan (and its encoder's in the sink).
    private let track: Int
    private let encoder: Encoder
    private var range = ClosedSourceRange(start: .zero, end: .zero, needsSeek: false, endsEarly: false)
    private var outputOffset = 0.0
    private var fades: (in: Bool, out: Bool) = (false, false)
    private var crossfade = AudioCrossfade()
    private var continuity = AudioContinuity()
    private var rangeGraph: FilterGraph?
    private var framingGraph: FilterGraph?
    private let decoded: Frame
    private let filtered: Frame
    private let framed: Frame
    private let packet: Packet
    private(set) var isDone = false
    private(set) var framesEncoded = 0
    /// Source packets the decoder rejected as corrupt (skipped).
    var corruptPackets: Int { decoder.corruptPackets }

    /// The stage for `sink`'s audio track `track` (a position in the plan's audio tracks).
    init(input: InputFile, track: Int, sink: MuxingSink) throws(MediaFailure) {
        guard track < sink.audioEncoders.count, track < sink.plannedAudio.count else {
            throw .failed(.encode, "audio track", "no encoder for audio track \(track)")
        }
        decoder = try Decoder(input: input, streamIndex: sink.plannedAudio[track].streamIndex)
        settings = sink.plannedAudio[track].settings
        encoder = sink.audioEncoders[track]
        self.track = track
        self.sink = sink
        decoded = try Frame()
        filtered = try Frame()
        framed = try Frame()
        packet = try Packet()
    }

    /// Starts a range that lands at `outputOffset` seconds; fades mark joins with other ranges.
    /// With a crossfade, the range fades in over the previous range's tail (mixed in) and, when
    /// `tailStart` is set, its own sound from there on is kept back for the next range.
    func beginRange(_ range: ClosedSourceRange, outputOffset: Double, fadeIn: Bool, fadeOut: Bool,
                    crossfadeIn: Bool, tailStart: Double?, crossfade length: Double) {
        self.range = range
        self.outputOffset = outputOffset
        fades = (fadeIn, fadeOut)
        crossfade.beginRange(
            rate: settings.sampleRate, blendStart: crossfadeIn ? outputOffset : nil, tailStart: tailStart, length: length)
        rangeGraph = nil
        continuity.reset()
        isDone = false
    }

    /// Decodes one packet of the current range and moves what it can toward the muxer.
    func handle(_ input: Packet?) throws(MediaFailure) {
        guard !isDone || input == nil else { return }
        try decoder.decode(input, into: decoded) { frame throws(MediaFailure) in
            try accept(frame)
            return !isDone
        }
        try drain()
    }

    /// Ends the current range (draining the decoder at the end of the file).
    func endRange(atEndOfFile: Bool) throws(MediaFailure) {
        if atEndOfFile && !isDone { try handle(nil) }
        isDone = true
        if let rangeGraph {
            try rangeGraph.push(nil)
            try moveRangeOutput(from: rangeGraph)
            self.rangeGraph = nil
        }
        decoder.flushBuffers()
        try drain()
    }

    /// Flushes the framing graph and the encoder into the muxer.
    func finish() throws(MediaFailure) {
        if let framingGraph {
            try framingGraph.push(nil)
            try drain()
        }
        try encoder.encode(nil, into: packet) { packet throws(MediaFailure) in
            try sink.writeAudio(packet, track: track, timeBase: encoder.timeBase)
        }
    }

    /// Takes one decoded frame of the current range into the range's graph, on the range's
    /// unbroken clock (timestamps in samples); the first frame at or after the range's end ends it.
    private func accept(_ frame: Frame) throws(MediaFailure) {
        if range.endsEarly, let time = decoder.time(of: frame), time >= range.end {
            isDone = true
            return
        }
        let rate = frame.sampleRate
        guard rate > 0 else { return }
        let samples = av_make_q(1, rate)
        let stamp = frame.presentationTimestamp.map { av_rescale_q($0, decoder.timeBase, samples) }
        let placed: Frame
        switch continuity.place(stamp: stamp, count: Int(frame.sampleCount), rate: rate) {
        case .drop:
            return
        case .keep(let start, let dropped):
            placed = dropped > 0 ? try frame.withoutLeadingSamples(Int32(dropped), stage: .decode) : frame
            placed.pts = start ?? reel_nopts_value()
        }
        let graph = try rangeGraph.orMake { () throws(MediaFailure) in try makeRangeGraph(for: placed, timeBase: samples) }
        try graph.push(placed)
        try moveRangeOutput(from: graph)
    }

    /// Moves trimmed, resampled frames of the range into the framing graph (mixing in the
    /// previous tail and keeping back this range's tail when crossfading).
    private func moveRangeOutput(from graph: FilterGraph) throws(MediaFailure) {
        while try graph.pull(into: filtered) == .produced {
            defer { filtered.unreference() }
            let keep = try crossfade.process(filtered, timeBase: graph.outputTimeBase)
            guard keep > 0 else { continue }
            filtered.sampleCount = Int32(keep)
            let framing = try framingGraph.orMake { () throws(MediaFailure) in
                try makeFramingGraph(timeBase: graph.outputTimeBase)
            }
            try framing.push(filtered)
        }
    }

    /// Moves encoder-sized frames into the encoder once the muxer is ready.
    func drain() throws(MediaFailure) {
        guard sink.isReady, let graph = framingGraph else { return }
        while try graph.pull(into: framed) == .produced {
            defer { framed.unreference() }
            framed.pts = av_rescale_q(framed.pts, graph.outputTimeBase, encoder.timeBase)
            try encoder.encode(framed, into: packet) { packet throws(MediaFailure) in
                try sink.writeAudio(packet, track: track, timeBase: encoder.timeBase)
            }
            framesEncoded += 1
        }
    }

    private func makeRangeGraph(for frame: Frame, timeBase: AVRational) throws(MediaFailure) -> FilterGraph {
        let source = FilterGraph.audioSourceArguments(for: frame, timeBase: timeBase)
        var chain: [String] = []
        if range.needsSeek || range.endsEarly {
            var trim = "atrim=start=\(seconds(range.start.seconds))"
            if range.endsEarly { trim += ":end=\(seconds(range.end.seconds))" }
            chain.append(trim)
        }
        let shift = range.start.seconds - outputOffset
        if shift != 0 { chain.append("asetpts=PTS-(\(seconds(shift)))/TB") }
        let length = (range.end - range.start).seconds
        if crossfade.blendsIn {
            chain.append("afade=t=in:st=\(seconds(outputOffset)):d=\(crossfade.length)")
        } else if fades.in {
            chain.append("afade=t=in:st=\(seconds(outputOffset)):d=\(Self.joinFade)")
        }
        if let tailStart = crossfade.tailStart {
            chain.append("afade=t=out:st=\(seconds(tailStart)):d=\(crossfade.length)")
        } else if fades.out {
            chain.append("afade=t=out:st=\(seconds(outputOffset + length - Self.joinFade)):d=\(Self.joinFade)")
        }
        chain.append("aresample=\(settings.sampleRate)")
        let format = av_get_sample_fmt_name(encoder.sampleFormat)
            .map { String(cString: $0) } ?? "fltp"
        chain.append("aformat=sample_fmts=\(format):channel_layouts=\(settings.channels == 1 ? "mono" : "stereo")")
        return try FilterGraph(isVideo: false, sourceArguments: source, description: chain.joined(separator: ","), threads: 1)
    }

    /// A pass-through graph whose sink hands out frames of exactly the encoder's frame size.
    private func makeFramingGraph(timeBase: AVRational) throws(MediaFailure) -> FilterGraph {
        let format = av_get_sample_fmt_name(encoder.sampleFormat)
            .map { String(cString: $0) } ?? "fltp"
        let layout = settings.channels == 1 ? "mono" : "stereo"
        let source = "time_base=\(timeBase.num)/\(timeBase.den):sample_rate=\(settings.sampleRate)"
            + ":sample_fmt=\(format):channel_layout=\(layout)"
        let graph = try FilterGraph(isVideo: false, sourceArguments: source, description: "anull", threads: 1)
        if encoder.frameSize > 0 { graph.setAudioFrameSize(encoder.frameSize) }
        return graph
    }

    private func seconds(_ value: Double) -> String { String(format: "%.9f", value) }
}
