import CFFmpeg

/// An owned `AVFrame`, freed with its wrapper.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(FFmpegFailure) {
        guard let frame = av_frame_alloc() else {
            throw FFmpegFailure("av_frame_alloc", code: reel_averror_enomem())
        }
        pointer = frame
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
    func reference() throws(FFmpegFailure) -> Frame {
        let copy = try Frame()
        try check(av_frame_ref(copy.pointer, pointer), "av_frame_ref")
        return copy
    }

    func unreference() { av_frame_unref(pointer) }
}
