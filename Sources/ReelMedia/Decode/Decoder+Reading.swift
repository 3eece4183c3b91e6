internal import CFFmpeg
import ReelSupport

extension Decoder {
    /// Reads `input` from its current position and hands each decoded frame of this decoder's
    /// stream to `body` (through the decode pump) until `body` returns `false` or the stream
    /// ends, then drains the decoder. `beforeSending` sees each packet of the stream first
    /// (to change what the decoder skips, say); reading stops, without draining, at a packet
    /// `stopsAt` gives up on.
    func forEachFrame(
        in input: InputFile, shouldCancel: () -> Bool = { false }, beforeSending: (Packet) -> Void = { _ in },
        stopsAt: (Packet) -> Bool = { _ in false }, _ body: (Frame) throws(MediaFailure) -> Bool
    ) throws(MediaFailure) {
        let packet = try Packet()
        let frame = try Frame()
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if shouldCancel() { throw .cancelled }
            guard packet.streamIndex == streamIndex else { continue }
            if stopsAt(packet) { return }
            beforeSending(packet)
            guard try decode(packet, into: frame, body) else { return }
        }
        try decode(nil, into: frame, body)
    }

    /// The frame on screen at `seconds` on the file's clock: the last one starting at or before
    /// it (the first frame when none does). Some demuxers (MPEG-TS) seek only approximately and
    /// may land after the time, and some keyframes cannot be decoded from (the frame comes out
    /// damaged, or late); then it seeks again, ever earlier (1, 2, 4... seconds), down to the
    /// file's start. A picture concealed without a flag (a reference missing before a false
    /// entry point) is known by the error the decoder logs: with one decoding thread, as the
    /// stills' decoders have, that counts as damage too.
    func frameOnScreen(at seconds: Double, in input: InputFile, fileStart: Double) throws(MediaFailure) -> (Frame, MediaTime) {
        var backoff = 0.0
        // Every frame is decoded here, so frames without timestamps can be counted.
        timesUntimedFrames = true
        while true {
            countLoggedErrors()
            var seekPoint = max(seconds - backoff, fileStart)
            if seekPoint <= fileStart {
                try input.rewind()
            } else if !input.seeksByTime || (try? input.seek(toSeconds: seekPoint)) == nil {
                // Raw elementary streams cannot seek by time: from the start, then.
                try input.rewind()
                seekPoint = fileStart
            }
            flushBuffers()
            var best: (Frame, MediaTime)?
            var damaged = false
            try forEachFrame(in: input, beforeSending: { skipsUnseenFrames($0, before: seconds, in: input) }) { frame throws(MediaFailure) in
                let time = self.time(of: frame) ?? .zero
                if time.seconds > seconds + 1e-6, best != nil { return false }
                damaged = frame.isDamaged || self.loggedErrors > 0
                best = (try frame.movedOut(), time)
                return time.seconds <= seconds + 1e-6
            }
            // A damaged picture (decoding began on a keyframe it cannot start from) also means
            // starting earlier.
            if let best, (best.1.seconds <= seconds + 1e-6 && !damaged) || seekPoint <= fileStart {
                lastSeekLead = seconds - seekPoint
                return best
            }
            if best == nil && seekPoint <= fileStart { throw .failed(.decode, "decode", "no frame at \(seconds) s") }
            backoff = backoff == 0 ? 1 : backoff * 2
        }
    }

    /// How far before a wanted time frames nothing refers to are left undecoded: far enough
    /// that no such frame is still on screen there (a variable-rate recording may hold one for
    /// a second).
    static let unseenFrameMargin = 2.0

    /// Leaves `packet` undecoded when nothing refers to its frame and it is shown more than
    /// `margin` before `seconds`; decodes everything else. Untimed streams are timed by counting
    /// every frame.
    func skipsUnseenFrames(_ packet: Packet, before seconds: Double, in input: InputFile, margin: Double = unseenFrameMargin) {
        guard input.seeksByTime, let pts = packet.presentationTimestamp else { return setSkipFrames(AVDISCARD_DEFAULT) }
        setSkipFrames(time(ofTimestamp: pts).seconds < seconds - margin ? AVDISCARD_NONREF : AVDISCARD_DEFAULT)
    }

    /// Hands `body` the frame on screen at each of `times` (as `frameOnScreen`) with the index
    /// of its time, visiting the times in increasing order. One the decode reaches more cheaply
    /// by going on (`InputFile.decodeGoesOn`) is not sought: a contact sheet of a file with one
    /// long GOP (a 4K HEVC clip of one ten-second GOP) or of a raw stream decodes it once, not
    /// once per tile. Only the frames around the current time are held.
    func visitFramesOnScreen(
        at times: [Double], in input: InputFile, fileStart: Double, _ body: (Int, Frame, MediaTime) throws(MediaFailure) -> Void
    ) throws(MediaFailure) {
        // The last frame decoded at or before the previous time, and the first after it.
        var onScreen: (Frame, MediaTime)?
        var next: (Frame, MediaTime)?
        for index in times.indices.sorted(by: { times[$0] < times[$1] }) {
            let seconds = times[index]
            // Without an index, a seek that had to start far back says keyframes are far apart.
            if let current = onScreen,
               input.decodeGoesOn(stream: streamIndex, from: current.1.seconds, to: seconds, reachWithoutIndex: lastSeekLead) {
                var best = current
                // Errors logged before (decoding up to the previous picture) were judged then.
                let earlierErrors = loggedErrors
                var clean = true
                if let waiting = next {
                    if waiting.1.seconds > seconds + 1e-6 {
                        try body(index, try best.0.reference(), best.1)
                        continue
                    }
                    best = waiting
                    next = nil
                }
                var ended = true
                try forEachFrame(in: input, beforeSending: { skipsUnseenFrames($0, before: seconds, in: input) }) { frame throws(MediaFailure) in
                    let time = self.time(of: frame) ?? .zero
                    if frame.isDamaged || self.loggedErrors > earlierErrors { clean = false }
                    if time.seconds > seconds + 1e-6 {
                        next = (try frame.movedOut(), time)
                        ended = false
                        return false
                    }
                    best = (try frame.movedOut(), time)
                    return true
                }
                if clean && !best.0.isDamaged {
                    try body(index, try best.0.reference(), best.1)
                    // At the stream's end the decoder was drained: it cannot go on.
                    onScreen = ended ? nil : best
                    continue
                }
            }
            // Seek: the first time, a keyframe not yet passed, no index, or damage on the way.
            let picked = try frameOnScreen(at: seconds, in: input, fileStart: fileStart)
            try body(index, try picked.0.reference(), picked.1)
            onScreen = picked
            next = nil
        }
    }

    /// The presentation time of a frame this decoder produced.
    func time(of frame: Frame) -> MediaTime? {
        frame.presentationTimestamp.map(time(ofTimestamp:))
    }

    /// A timestamp in this decoder's stream time base, as a time.
    func time(ofTimestamp pts: Int64) -> MediaTime {
        MediaTime(value: pts * Int64(timeBase.num), timescale: timeBase.den)
    }
}
