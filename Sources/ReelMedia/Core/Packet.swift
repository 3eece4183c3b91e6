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

    /// The stream the packet belongs to (in its file, or in the output once it is routed).
    var streamIndex: Int {
        get { Int(pointer.pointee.stream_index) }
        set { pointer.pointee.stream_index = Int32(newValue) }
    }

    /// The presentation timestamp in the stream's time base, or the decode timestamp without one.
    var presentationTimestamp: Int64? {
        let pts = pointer.pointee.pts
        if pts != reel_nopts_value() { return pts }
        let dts = pointer.pointee.dts
        return dts == reel_nopts_value() ? nil : dts
    }

    /// The raw presentation timestamp (`nil` when unset).
    var pts: Int64? {
        get { pointer.pointee.pts == reel_nopts_value() ? nil : pointer.pointee.pts }
        set { pointer.pointee.pts = newValue ?? reel_nopts_value() }
    }

    /// The decode timestamp (`nil` when unset).
    var dts: Int64? {
        get { pointer.pointee.dts == reel_nopts_value() ? nil : pointer.pointee.dts }
        set { pointer.pointee.dts = newValue ?? reel_nopts_value() }
    }

    /// How long the packet lasts in its stream's time base (0 when unknown).
    var duration: Int64 {
        get { pointer.pointee.duration }
        set { pointer.pointee.duration = newValue }
    }

    /// Payload size in bytes.
    var size: Int { Int(pointer.pointee.size) }

    /// Byte position in the source file (-1 when unknown).
    var position: Int64 {
        get { pointer.pointee.pos }
        set { pointer.pointee.pos = newValue }
    }

    /// Whether the packet starts a keyframe (decoding can begin here).
    var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// Whether the demuxer flagged the packet's data as corrupt (cut short, say).
    var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }

    /// The payload bytes.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: pointer.pointee.data, count: size) }

    /// A new packet referencing the same data (no copy of the payload).
    func reference() throws(MediaFailure) -> Packet {
        let copy = try Packet()
        guard av_packet_ref(copy.pointer, pointer) >= 0 else { throw .outOfMemory(operation: "av_packet_ref") }
        return copy
    }

    func unreference() { av_packet_unref(pointer) }
}
