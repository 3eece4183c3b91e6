import ReelSupport

extension Decoder {
    /// Reads `input` from its current position and hands each decoded frame of this decoder's
    /// stream to `body` (through the decode pump) until `body` returns `false` or the stream
    /// ends, then drains the decoder. `beforeSending` sees each packet of the stream first
    /// (to change what the decoder skips, say).
    func forEachFrame(
        in input: InputFile, shouldCancel: () -> Bool = { false }, beforeSending: (Packet) -> Void = { _ in },
        _ body: (Frame) throws(MediaFailure) -> Bool
    ) throws(MediaFailure) {
        let packet = try Packet()
        let frame = try Frame()
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if shouldCancel() { throw .cancelled }
            guard packet.streamIndex == streamIndex else { continue }
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
            try forEachFrame(in: input) { frame throws(MediaFailure) in
                let time = self.time(of: frame) ?? .zero
                if time.seconds > seconds + 1e-6, best != nil { return false }
                damaged = frame.isDamaged || self.loggedErrors > 0
                best = (try frame.movedOut(), time)
                return time.seconds <= seconds + 1e-6
            }
            // A damaged picture (decoding began on a keyframe it cannot start from) also means
            // starting earlier.
            if let best, (best.1.seconds <= seconds + 1e-6 && !damaged) || seekPoint <= fileStart { return best }
            if best == nil && seekPoint <= fileStart { throw .failed(.decode, "decode", "no frame at \(seconds) s") }
            backoff = backoff == 0 ? 1 : backoff * 2
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
