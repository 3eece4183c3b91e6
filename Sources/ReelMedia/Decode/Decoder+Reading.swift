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

    /// The presentation time of a frame this decoder produced.
    func time(of frame: Frame) -> MediaTime? {
        frame.presentationTimestamp.map(time(ofTimestamp:))
    }

    /// A timestamp in this decoder's stream time base, as a time.
    func time(ofTimestamp pts: Int64) -> MediaTime {
        MediaTime(value: pts * Int64(timeBase.num), timescale: timeBase.den)
    }
}
