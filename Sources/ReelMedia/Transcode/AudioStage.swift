internal import CFFmpeg
import Foundation
import ReelSupport

/// Decodes one source audio stream and hands the parts inside each range, joined end to end,
/// to its output (an encoder, or a loudness meter).
///
/// Each range gets its own small graph (`atrim`, `asetpts` onto the output timeline,
/// `aresample`, `aformat` to planar float); `AudioCrossfade` mixes the overlapping sound of
/// neighbouring ranges at each join (`AudioJoins`); a persistent graph then finishes the joined
/// sound (loudness, fades at the output's edges, `AudioFinishing`) and cuts it into frames of
/// the output's size, so frame boundaries do not restart at every join.
final class AudioStage {
    private let decoder: Decoder
    private let settings: AudioEncoderSettings
    private let output: any AudioStageOutput
    private let finishing: AudioFinishing
    /// The source sound the current range plays: the range with what its joins borrow.
    private var span = ClosedSourceRange(start: .zero, end: .zero, needsSeek: false, endsEarly: false)
    /// Where `span` starts on the output timeline, in seconds.
    private var spanOffset = 0.0
    private var edges = AudioRangeEdges()
    private var crossfade = AudioCrossfade()
    private var continuity = AudioContinuity()
    private var rangeGraph: FilterGraph?
    /// The decoded sound's shape `rangeGraph` was made for.
    private var rangeGraphShape: SoundShape?
    private var framingGraph: FilterGraph?
    private let decoded: Frame
    private let filtered: Frame
    private let framed: Frame
    private(set) var isDone = false
    /// Source packets the decoder rejected as corrupt (skipped).
    var corruptPackets: Int { decoder.corruptPackets }
    /// The output's sample rate; every timestamp after the range graphs counts these samples.
    private var rate: Int32 { Int32(settings.sampleRate) }

    /// The stage for source stream `streamIndex`, made into `settings`' rate and channels,
    /// finished by `finishing` and handed to `output`.
    init(input: InputFile, streamIndex: Int, settings: AudioEncoderSettings, finishing: AudioFinishing,
         output: any AudioStageOutput) throws(MediaFailure) {
        decoder = try Decoder(input: input, streamIndex: streamIndex)
        self.settings = settings
        self.finishing = finishing
        self.output = output
        decoded = try Frame()
        filtered = try Frame()
        framed = try Frame()
    }

    /// Starts a range that lands at `outputOffset` seconds, meeting its neighbours as `edges` say.
    func beginRange(_ range: ClosedSourceRange, outputOffset: Double, edges: AudioRangeEdges) {
        let lead = MediaTime(seconds: edges.lead, timescale: 1_000_000)
        let overrun = MediaTime(seconds: edges.overrun, timescale: 1_000_000)
        span = ClosedSourceRange(start: range.start - lead, end: range.end + overrun,
                                 needsSeek: range.needsSeek || edges.lead > 0, endsEarly: range.endsEarly)
        spanOffset = outputOffset - edges.lead
        self.edges = edges
        crossfade.beginRange(rate: rate, blendStart: edges.blendsIn ? samples(spanOffset) : nil,
                             tailStart: edges.tailStart.map(samples))
        rangeGraph = nil
        continuity.reset()
        isDone = false
    }

    /// Decodes one packet of the current range and moves what it can toward the output.
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
        try crossfade.endRange { frame throws(MediaFailure) in try toFraming(frame) }
        decoder.flushBuffers()
        try drain()
    }

    /// Flushes the framing graph and the output.
    func finish() throws(MediaFailure) {
        try crossfade.finish { frame throws(MediaFailure) in try toFraming(frame) }
        if let framingGraph {
            try framingGraph.push(nil)
            try drain()
        }
        try output.take(nil)
    }

    /// Takes one decoded frame of the current range into the range's graph, on the range's
    /// unbroken clock (timestamps in samples); the first frame at or after the range's end ends it.
    private func accept(_ frame: Frame) throws(MediaFailure) {
        if span.endsEarly, let time = decoder.time(of: frame), time >= span.end {
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
        let shape = SoundShape(placed)
        if let graph = rangeGraph, shape != rangeGraphShape {
            // The sound changed its rate or channels mid-stream (a broadcast or joined
            // recordings): the range's graph takes one shape, so it is drained and made anew.
            try graph.push(nil)
            try moveRangeOutput(from: graph)
            rangeGraph = nil
        }
        rangeGraphShape = shape
        let graph = try rangeGraph.orMake { () throws(MediaFailure) in try makeRangeGraph(for: placed, timeBase: samples) }
        try graph.push(placed)
        try moveRangeOutput(from: graph)
    }

    /// Moves trimmed, resampled frames of the range through the crossfade into the framing graph.
    private func moveRangeOutput(from graph: FilterGraph) throws(MediaFailure) {
        while try graph.pull(into: filtered) == .produced {
            defer { filtered.unreference() }
            filtered.pts = av_rescale_q(filtered.pts, graph.outputTimeBase, av_make_q(1, rate))
            try crossfade.process(filtered) { frame throws(MediaFailure) in try toFraming(frame) }
        }
    }

    /// Pushes a frame of joined sound (timestamp in samples) into the framing graph.
    private func toFraming(_ frame: Frame) throws(MediaFailure) {
        let framing = try framingGraph.orMake { () throws(MediaFailure) in try makeFramingGraph() }
        try framing.push(frame)
    }

    /// Moves finished frames of the output's size into the output once it is ready.
    func drain() throws(MediaFailure) {
        guard output.isReady, let graph = framingGraph else { return }
        while try graph.pull(into: framed) == .produced {
            defer { framed.unreference() }
            framed.pts = av_rescale_q(framed.pts, graph.outputTimeBase, av_make_q(1, rate))
            try output.take(framed)
        }
    }

    private func makeRangeGraph(for frame: Frame, timeBase: AVRational) throws(MediaFailure) -> FilterGraph {
        let source = FilterGraph.audioSourceArguments(for: frame, timeBase: timeBase)
        var chain: [String] = []
        if span.needsSeek || span.endsEarly {
            var trim = "atrim=start=\(seconds(span.start.seconds))"
            if span.endsEarly { trim += ":end=\(seconds(span.end.seconds))" }
            chain.append(trim)
        }
        let shift = span.start.seconds - spanOffset
        if shift != 0 { chain.append("asetpts=PTS-(\(seconds(shift)))/TB") }
        let fade = AudioJoins.fallbackFade
        if edges.fadesIn { chain.append("afade=t=in:st=\(seconds(spanOffset)):d=\(fade)") }
        if edges.fadesOut {
            chain.append("afade=t=out:st=\(seconds(spanOffset + (span.end - span.start).seconds - fade)):d=\(fade)")
        }
        chain.append("aresample=\(settings.sampleRate)")
        chain.append("aformat=sample_fmts=fltp:channel_layouts=\(layout)")
        return try FilterGraph(isVideo: false, sourceArguments: source, description: chain.joined(separator: ","), threads: 1)
    }

    /// The graph that finishes the joined sound and hands out frames of exactly the output's size.
    private func makeFramingGraph() throws(MediaFailure) -> FilterGraph {
        let format = av_get_sample_fmt_name(output.sampleFormat).map { String(cString: $0) } ?? "fltp"
        let source = "time_base=1/\(rate):sample_rate=\(rate):sample_fmt=fltp:channel_layout=\(layout)"
        let chain = finishing.filters(rate: settings.sampleRate)
            + ["aformat=sample_fmts=\(format):sample_rates=\(rate):channel_layouts=\(layout)"]
        let graph = try FilterGraph(isVideo: false, sourceArguments: source, description: chain.joined(separator: ","), threads: 1)
        if output.frameSize > 0 { graph.setAudioFrameSize(output.frameSize) }
        return graph
    }

    private var layout: String { settings.channels == 1 ? "mono" : "stereo" }

    /// `seconds` on the output timeline as a sample index.
    private func samples(_ seconds: Double) -> Int64 { Int64((seconds * Double(rate)).rounded()) }

    private func seconds(_ value: Double) -> String { String(format: "%.9f", value) }
}
