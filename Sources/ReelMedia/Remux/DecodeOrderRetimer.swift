/// Presentation times for MPEG-4 Part 2 video read from AVI, which stores frames in decode
/// order with one time slot each and no presentation times.
///
/// AVI's slots are the display slots: Video for Windows decoders output one picture per chunk,
/// and DivX/Xvid pack each B frame with the reference frame before it (undone by
/// `mpeg4_unpack_bframes`) so that they can. The demuxer leaves `pts` unset on most packets,
/// and setting it to `dts` would show every reference frame before the B frames it is
/// displayed after. MPEG-4 Part 2 B frames are never references, so a reference frame is
/// displayed after the B frames that follow it in decode order: in a group of a reference frame
/// and the B frames after it, with decode slots d0...dn, each B frame takes the slot before
/// its own (d0...dn-1) and the reference frame takes dn. Decode times move one slot back
/// (a packet's `dts` becomes the slot of the packet before it) so that none is after its `pts`.
final class DecodeOrderRetimer {
    private var group: [Packet] = []
    private var previousSlot: Int64?

    /// Forgets everything held (after a seek, the next packet starts a new sequence).
    func reset() {
        group = []
        previousSlot = nil
    }

    /// Takes the next packet in decode order; returns the packets whose times are now known,
    /// in decode order, with `pts` and `dts` set. A packet without a decode time passes as it is.
    func push(_ packet: Packet) -> [Packet] {
        guard packet.dts != nil else { return release() + [packet] }
        if Self.isBFrame(packet.bytes), !group.isEmpty {
            group.append(packet)
            return []
        }
        let released = release()
        group = [packet]
        return released
    }

    /// Returns the packets still held, timed (at the end of the stream or of a range).
    func flush() -> [Packet] {
        release()
    }

    /// Times the group held (every packet in it has a decode time) and hands it out.
    private func release() -> [Packet] {
        let released = group
        group = []
        let slots = released.compactMap(\.dts)
        guard slots.count == released.count, let last = slots.last else { return released }
        for (position, packet) in released.enumerated() {
            let slot = slots[position]
            packet.pts = position == 0 ? last : slots[position - 1]
            packet.dts = previousSlot ?? slot - max(packet.duration, 1)
            previousSlot = slot
        }
        return released
    }

    /// Whether an MPEG-4 Part 2 payload is a B-VOP: its first VOP start code (00 00 01 B6) is
    /// followed by `vop_coding_type` 2 in the top two bits.
    static func isBFrame(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 5 else { return false }
        var index = 0
        while index + 4 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1, bytes[index + 3] == 0xB6 {
                return bytes[index + 4] >> 6 == 2
            }
            index += 1
        }
        return false
    }
}
