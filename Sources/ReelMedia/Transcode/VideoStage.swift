internal import CFFmpeg
import ReelFrameReduction
import ReelSupport

/// Decodes the primary video stream, keeps the frames inside the current range that the
/// reducer selects, filters them (denoise, rotate, scale, format) and encodes them. Ranges are
/// joined end to end on one continuous output timeline.
///
/// Frames are held back briefly so each one's on-screen span is known before deciding:
/// `pending` waits for the next decoded frame (its end time), `held` waits for the next kept
/// frame (its output duration, including the time of frames dropped after it). `held` and all
/// times after `offer` are on the output timeline; `pending` and `beforeRange` on the source's.
final class VideoStage {
    private let plan: TranscodePlan
    private let decoder: Decoder
    private let sink: MuxingSink
    private let timeBase: AVRational
    private var rangeStart: Int64 = 0
    private var rangeEnd: Int64 = .max
    /// Where the current range starts on the output timeline.
    private var outputOffset: Int64 = 0
    private var selector: (any FrameSelector)?
    private let measuresScenes: Bool
    private var previousGrid: LumaGrid?

    private var graph: FilterGraph?
    private var encoder: Encoder?
    private let decoded: Frame
    private let filtered: Frame
    private let packet: Packet
    private var pending: (frame: Frame, start: Int64)?
    private var beforeRange: Frame?
    private var held: (frame: Frame, start: Int64)?
    private var crossfade: VideoCrossfade
    private var durations: [Int64: Int64] = [:]
    private let fallbackDuration: Int64

    private(set) var isDone = false
    private(set) var statistics = TranscodeStatistics()
    /// Source packets the decoder rejected as corrupt (skipped).
    var corruptPackets: Int { decoder.corruptPackets }
    /// Decoded pictures the decoder flagged as damaged.
    var damagedFrames: Int { decoder.damagedFrames }
    /// Decoded pictures timed before the one shown before them (left out by the decoder).
    var mistimedFrames: Int { decoder.mistimedFrames }

    /// The picture's fades at the output's edges, ahead of every graph's filters.
    private let fadeFilter: String?

    /// The stage for `plan`'s video, fading it by `fadeFilter` (output times) when given.
    init(input: InputFile, plan: TranscodePlan, sink: MuxingSink, fadeFilter: String? = nil) throws(MediaFailure) {
        self.plan = plan
        self.fadeFilter = fadeFilter
        self.sink = sink
        decoder = try Decoder(input: input, streamIndex: plan.videoStreamIndex)
        decoder.timesUntimedFrames = true
        timeBase = decoder.timeBase
        if let rate = plan.targetFrameRate {
            selector = plan.reducer.makeSelector(targetFrameRate: rate)
            measuresScenes = plan.reducer.usesSceneChangeScores
        } else {
            measuresScenes = false
        }
        crossfade = VideoCrossfade(length: av_rescale_q(Int64((plan.crossfade * 1_000_000).rounded()),
                                                         av_make_q(1, 1_000_000), decoder.timeBase))
        let rate = plan.video.frameRate > 0 ? plan.video.frameRate : 30
        fallbackDuration = max(1, av_rescale_q(Int64((1_000_000 / rate).rounded()), av_make_q(1, 1_000_000), timeBase))
        decoded = try Frame()
        filtered = try Frame()
        packet = try Packet()
    }

    /// Decodes one packet (or flushes with `nil`). Once the range has ended, the decoder's
    /// remaining frames and packets are not needed any more.
    func handle(_ input: Packet?) throws(MediaFailure) {
        guard !isDone || input == nil else { return }
        try decoder.decode(input, into: decoded) { frame throws(MediaFailure) in
            if let pts = frame.presentationTimestamp { try accept(try frame.movedOut(), pts: pts) }
            return !isDone
        }
    }

    /// Starts the next range: source frames in `range` go to the output after what was
    /// written so far.
    /// `dissolvesAfter`: whether the join after it dissolves (`TranscodePlan.dissolves`).
    func beginRange(_ range: ClosedSourceRange, dissolvesAfter: Bool) {
        rangeStart = Self.ticks(range.start, timeBase)
        rangeEnd = range.endsEarly ? Self.ticks(range.end, timeBase) : .max
        outputOffset = crossfade.beginRange(
            naturalOffset: lastEnd, duration: Self.ticks(range.end, timeBase) - rangeStart, dissolvesAfter: dissolvesAfter)
        isDone = false
        beforeRange = nil
        pending = nil
    }

    /// Ends the current range; at the end of the file the decoder is drained first. The last
    /// frame lasts until the range (or the source) ends.
    func endRange(sourceEnd: Int64?, atEndOfFile: Bool) throws(MediaFailure) {
        if atEndOfFile && !isDone { try handle(nil) }
        if let pending {
            let natural = pending.start + max(pending.frame.decodedDuration, fallbackDuration)
            var end = min(rangeEnd, natural)
            if let sourceEnd, sourceEnd > pending.start { end = min(end, max(sourceEnd, pending.start + 1)) }
            self.pending = nil
            try offer(pending.frame, start: pending.start, end: end)
        }
        isDone = true
        beforeRange = nil
        decoder.flushBuffers()
    }

    /// Where the current range starts on the output timeline, in seconds.
    var rangeOffset: Double { Double(outputOffset) * av_q2d(timeBase) }

    /// Where the current range's crossfade tail begins on the output timeline, if it has one.
    var tailStart: Double? { crossfade.tailStart.map { Double($0) * av_q2d(timeBase) } }

    /// Encodes the last kept frame and flushes filter and encoder into the muxer.
    func finish() throws(MediaFailure) {
        for leftover in crossfade.leftovers() {
            if let held { try emit(held.frame, start: held.start, end: leftover.start) }
            held = leftover
        }
        if let held {
            self.held = nil
            try emit(held.frame, start: held.start, end: lastEnd)
        }
        guard let graph else { return }
        try graph.push(nil)
        // A GIF's palette is made from every picture: its graph gives its first picture only
        // now, and the encoder opens here.
        try pullFiltered(from: graph)
        guard let encoder else { return }
        try encoder.encode(nil, into: packet, write)
    }

    /// The end of the last frame offered, on the output timeline.
    private var lastEnd: Int64 = 0

    /// Seconds of output timeline covered so far (the end of the last frame offered).
    var timelineEnd: Double { Double(lastEnd) * av_q2d(timeBase) }

    private func accept(_ frame: Frame, pts: Int64) throws(MediaFailure) {
        if pts < rangeStart {
            beforeRange = frame
            return
        }
        if let carried = beforeRange {
            // The frame on screen when the range starts: keep it, starting exactly at the range start.
            beforeRange = nil
            if pts > rangeStart { pending = (carried, rangeStart) }
        }
        if let pending {
            self.pending = nil
            try offer(pending.frame, start: pending.start, end: min(pts, rangeEnd))
        }
        if pts >= rangeEnd {
            isDone = true
            return
        }
        pending = (frame, pts)
    }

    /// Gives one frame with its on-screen span (source times) to the reducer; kept frames wait
    /// in `held` until the next kept frame fixes their duration.
    private func offer(_ frame: Frame, start sourceStart: Int64, end sourceEnd: Int64) throws(MediaFailure) {
        guard sourceEnd > sourceStart else { return }
        // Counted here, not when decoded: the frames decoded from the keyframe before a range
        // are not the source's frames in it.
        statistics.framesDecoded += 1
        try applyFraming(to: frame, at: sourceStart)
        let start = sourceStart - rangeStart + outputOffset
        let end = sourceEnd - rangeStart + outputOffset
        lastEnd = end
        var outputStart = start
        if var selector {
            var score: Double?
            if measuresScenes, let grid = LumaGrid(frame: frame.pointer) {
                score = previousGrid.map { grid.difference(to: $0) }
                previousGrid = grid
            }
            let decision = selector.select(FrameTiming(start: time(start), end: time(end), sceneChange: score))
            self.selector = selector
            guard case .keep(let at) = decision else { return }
            try checkKept(at, frameEnd: time(end))
            outputStart = Self.ticks(at, timeBase)
            if let held, outputStart <= held.start { outputStart = held.start + 1 }
        }
        let shown = try crossfade.blended(frame, start: outputStart)
        if crossfade.isInTail(outputStart) {
            // Held back for the next range's crossfade; the frame before it ends where the tail begins.
            if let held, let tailStart = crossfade.tailStart {
                try emit(held.frame, start: held.start, end: max(tailStart, held.start + 1))
                self.held = nil
            }
            crossfade.collect(shown, start: outputStart)
            return
        }
        if let held {
            try emit(held.frame, start: held.start, end: outputStart)
        }
        held = (shown, outputStart)
    }

    /// A reducer's kept time must not go back before the previous one, nor past the end of the
    /// frame it keeps (the frame would then show where the source had a later one).
    private func checkKept(_ at: MediaTime, frameEnd: MediaTime) throws(MediaFailure) {
        if let lastKept, at < lastKept {
            throw .reducerMisbehaved("frame reducer \(reducerName) kept a frame at \(at.seconds) s, before the one it kept at "
                + "\(lastKept.seconds) s; kept times must increase")
        }
        if at >= frameEnd || at < .zero {
            throw .reducerMisbehaved("frame reducer \(reducerName) kept a frame at \(at.seconds) s, outside its span on the "
                + "output timeline (it ends at \(frameEnd.seconds) s)")
        }
        lastKept = at
    }

    /// The last time a reducer kept a frame at.
    private var lastKept: MediaTime?

    /// Whether a reducer is choosing frames and has kept none yet.
    var reducerKeptNothing: Bool { selector != nil && lastKept == nil }

    /// The reducer's type name, for messages.
    var reducerName: String { String(describing: type(of: plan.reducer)) }

    /// Narrows `frame` to the virtual camera's window at its source time (`ticks`).
    private func applyFraming(to frame: Frame, at ticks: Int64) throws(MediaFailure) {
        guard let framing = plan.framing,
              let window = framing.window(at: Double(ticks) * av_q2d(timeBase),
                                          frameWidth: Int(frame.width), frameHeight: Int(frame.height))
        else { return }
        try frame.crop(left: window.left, top: window.top, width: framing.cropWidth, height: framing.cropHeight)
    }

    /// The picture size the current filter graph takes.
    private var graphInput: (width: Int32, height: Int32)?

    /// Sends a kept frame, at its output time, through the filter to the encoder.
    private func emit(_ frame: Frame, start: Int64, end: Int64) throws(MediaFailure) {
        frame.pts = start
        durations[start] = end - start
        // A framed video switches between cropped and fitted shots: each size has its graph,
        // and the old one is drained first so frames reach the encoder in order.
        if let input = graphInput, let graph, input != (frame.width, frame.height) {
            try graph.push(nil)
            try pullFiltered(from: graph)
            self.graph = nil
        }
        graphInput = (frame.width, frame.height)
        let graph = try self.graph.orMake { () throws(MediaFailure) in try makeGraph(for: frame) }
        try graph.push(frame)
        try pullFiltered(from: graph)
    }

    /// Makes `plan.rateSchedule`'s changes as the encoder reaches them.
    private lazy var rateScheduler = RateScheduler(
        changes: plan.rateSchedule, outputEnd: plan.ranges.map { ($0.end - $0.start).seconds }.reduce(0, +),
        frameRate: plan.video.frameRate)

    /// Switches the encoder's rate factor, and starts a keyframe, as the schedule says.
    private func applyRateSchedule(to frame: Frame, timeBase: AVRational, encoder: Encoder) throws(MediaFailure) {
        guard !rateScheduler.isEmpty else { return }
        let step = rateScheduler.beforeSending(time: Double(frame.pts) * av_q2d(timeBase))
        if let rateFactor = step.rateFactor { try encoder.setConstantRateFactor(rateFactor) }
        if step.keyframe { frame.forceKeyframe() }
    }

    private func pullFiltered(from graph: FilterGraph) throws(MediaFailure) {
        while try graph.pull(into: filtered) == .produced {
            defer { filtered.unreference() }
            let encoder: Encoder
            if let existing = self.encoder {
                encoder = existing
            } else {
                encoder = try openEncoder(for: filtered, graph: graph)
                self.encoder = encoder
            }
            // Let x264/x265 choose picture types, as the ffmpeg CLI does, except where a new
            // rate factor starts (a shot of its own).
            filtered.clearPictureType()
            try applyRateSchedule(to: filtered, timeBase: graph.outputTimeBase, encoder: encoder)
            try encoder.encode(filtered, into: packet, write)
            statistics.framesEncoded += 1
        }
    }

    /// Gives an encoded packet its frame's duration (libx264 leaves it 0) and muxes it.
    private func write(_ packet: Packet) throws(MediaFailure) {
        guard let encoder else { return }
        rateScheduler.packetWritten()
        if let pts = packet.pts, let duration = durations.removeValue(forKey: pts) {
            packet.duration = duration
        } else if packet.duration <= 0 {
            packet.duration = fallbackDuration
        }
        try sink.writeVideo(packet, timeBase: encoder.timeBase)
    }

    private func openEncoder(for frame: Frame, graph: FilterGraph) throws(MediaFailure) -> Encoder {
        let hdr = plan.hdr ?? (plan.carryFrameHDR ? HDRSideData.metadata(of: frame.pointer) : nil)
        let encoder = try Encoder(
            video: plan.video, width: frame.width, height: frame.height,
            pixelFormat: frame.format, timeBase: graph.outputTimeBase,
            colorFrom: frame.pointer, hdr: plan.video.encoderName == "libx265" ? hdr : nil,
            globalHeader: sink.needsGlobalHeader)
        statistics.encodedWidth = Int(frame.width)
        statistics.encodedHeight = Int(frame.height)
        try sink.start(videoEncoder: encoder, hdr: hdr)
        return encoder
    }

    private func makeGraph(for frame: Frame) throws(MediaFailure) -> FilterGraph {
        var description = plan.videoFilter
        if let framing = plan.framing, Int(frame.width) != framing.cropWidth || Int(frame.height) != framing.cropHeight {
            description = framing.fitFilter
        }
        if let fadeFilter { description = description.isEmpty ? fadeFilter : fadeFilter + "," + description }
        return try FilterGraph(isVideo: true, sourceArguments: FilterGraph.videoSourceArguments(for: frame, timeBase: timeBase),
                               description: description)
    }

    private func time(_ ticks: Int64) -> MediaTime {
        MediaTime(value: ticks * Int64(timeBase.num), timescale: timeBase.den)
    }

    static func ticks(_ time: MediaTime, _ timeBase: AVRational) -> Int64 {
        av_rescale_q(time.value, av_make_q(1, time.timescale), timeBase)
    }
}
