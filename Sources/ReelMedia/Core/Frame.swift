internal import CFFmpeg
import ReelSupport

/// An owned `AVFrame`, freed with its wrapper.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MediaFailure) {
        pointer = try allocated(av_frame_alloc(), "av_frame_alloc")
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// The frame's presentation time in its stream's time base (best effort when pts is missing).
    var presentationTimestamp: Int64? {
        let pts = pointer.pointee.best_effort_timestamp
        if pts != reel_nopts_value() { return pts }
        let raw = pointer.pointee.pts
        return raw == reel_nopts_value() ? nil : raw
    }

    /// Whether the decoder flagged the frame as damaged (concealed errors or missing references).
    var isDamaged: Bool {
        pointer.pointee.decode_error_flags != 0 || pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0
    }

    var width: Int32 { pointer.pointee.width }
    var height: Int32 { pointer.pointee.height }

    /// A new frame referencing the same buffers (no pixel copy).
    func reference() throws(MediaFailure) -> Frame {
        let copy = try Frame()
        guard av_frame_ref(copy.pointer, pointer) >= 0 else { throw .outOfMemory(operation: "av_frame_ref") }
        return copy
    }

    func unreference() { av_frame_unref(pointer) }
}
