internal import CFFmpeg
import ReelSupport

extension Decoder {
    /// Reads `input` from its current position and hands each decoded frame of this decoder's
    /// stream to `body` until `body` returns `false` or the stream ends (then the decoder is
    /// drained). Corrupt packets are skipped. The frame is unreferenced after `body` returns;
    /// move its buffers out (`av_frame_move_ref`) to keep it.
    func forEachFrame(
        in input: InputFile, shouldCancel: () -> Bool = { false }, beforeSending: (Packet) -> Void = { _ in },
        _ body: (Frame) throws(MediaFailure) -> Bool
    ) throws(MediaFailure) {
        let packet = try Packet()
        let frame = try Frame()
        func drain() throws(MediaFailure) -> Bool {
            while try receive(into: frame) == .produced {
                defer { frame.unreference() }
                if try !body(frame) { return false }
            }
            return true
        }
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if shouldCancel() { throw .cancelled }
            guard packet.streamIndex == streamIndex else { continue }
            beforeSending(packet)
            do throws(MediaFailure) {
                while try !send(packet) {
                    guard try drain() else { return }
                }
            } catch where error.isInvalidData {
                continue
            }
            guard try drain() else { return }
        }
        _ = try send(nil)
        _ = try drain()
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
