internal import CFFmpeg
import ReelSupport

/// An owned `AVPacket`, freed with its wrapper.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaFailure) {
        pointer = try allocated(av_packet_alloc(), "av_packet_alloc")
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }

    /// The presentation timestamp in the stream's time base, or the decode timestamp without one.
    var presentationTimestamp: Int64? {
        let pts = pointer.pointee.pts
        if pts != reel_nopts_value() { return pts }
        let dts = pointer.pointee.dts
        return dts == reel_nopts_value() ? nil : dts
    }

    /// Whether the packet starts a keyframe (decoding can begin here).
    var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// A new packet referencing the same data (no copy of the payload).
    func reference() throws(MediaFailure) -> Packet {
        let copy = try Packet()
        guard av_packet_ref(copy.pointer, pointer) >= 0 else { throw .outOfMemory(operation: "av_packet_ref") }
        return copy
    }

    func unreference() { av_packet_unref(pointer) }
}
