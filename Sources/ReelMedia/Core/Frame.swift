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

    /// Gives an untimed frame its presentation time (and best-effort time).
    func stamp(_ pts: Int64) {
        pointer.pointee.pts = pts
        pointer.pointee.best_effort_timestamp = pts
    }

        /// The raw presentation timestamp, as filters and encoders read it.
    var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }

    /// How long the decoder says the frame lasts, in its stream's time base (0 when unknown).
    var decodedDuration: Int64 { pointer.pointee.pkt_duration }

    /// Whether the decoder marked the picture a keyframe.
    var isKeyframe: Bool { pointer.pointee.key_frame != 0 }
    /// Whether the decoder says the picture is interlaced (two fields).
    var isInterlaced: Bool { pointer.pointee.interlaced_frame != 0 }
    /// How much wider than tall a stored pixel is shown (1 when square or unknown).
    var pixelAspect: Double {
        let ratio = pointer.pointee.sample_aspect_ratio
        return ratio.num > 0 && ratio.den > 0 ? Double(ratio.num) / Double(ratio.den) : 1
    }
    /// The picture's width as shown: the stored width times `pixelAspect`.
    var shownWidth: Double { Double(width) * pixelAspect }

    /// Whether the decoder flagged the frame as damaged (concealed errors or missing references).
    var isDamaged: Bool {
        pointer.pointee.decode_error_flags != 0 || pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0
    }

    var width: Int32 { pointer.pointee.width }
    var height: Int32 { pointer.pointee.height }
    /// The pixel format (video) or sample format (audio), as FFmpeg numbers it.
    var format: Int32 { pointer.pointee.format }

    /// Samples per channel (audio).
    var sampleCount: Int32 {
        get { pointer.pointee.nb_samples }
        set { pointer.pointee.nb_samples = newValue }
    }

    /// Channels (audio).
    var channelCount: Int32 { pointer.pointee.ch_layout.nb_channels }

    /// Samples per second (audio).
    var sampleRate: Int32 { pointer.pointee.sample_rate }

    /// A new audio frame holding this one's samples after the first `dropped` (copied), with
    /// this one's properties; the caller sets its timestamp.
    func withoutLeadingSamples(_ dropped: Int32, stage: MediaFailure.Stage) throws(MediaFailure) -> Frame {
        let kept = try Frame()
        let source = pointer, target = kept.pointer
        target.pointee.format = source.pointee.format
        target.pointee.sample_rate = source.pointee.sample_rate
        target.pointee.nb_samples = max(source.pointee.nb_samples - dropped, 0)
        try check(av_channel_layout_copy(&target.pointee.ch_layout, &source.pointee.ch_layout), stage, "av_channel_layout_copy")
        try check(av_frame_get_buffer(target, 0), stage, "av_frame_get_buffer")
        try check(av_frame_copy_props(target, source), stage, "av_frame_copy_props")
        try check(av_samples_copy(target.pointee.extended_data, source.pointee.extended_data, 0, dropped,
                                  target.pointee.nb_samples, source.pointee.ch_layout.nb_channels,
                                  AVSampleFormat(source.pointee.format)), stage, "av_samples_copy")
        return kept
    }

    /// Forgets the picture type the decoder set, so an encoder chooses its own (a decoded
    /// frame keeps the source's I/P/B type, and x264/x265 would copy the source's GOP from it).
    /// Asks the encoder to start a closed group of pictures here (an IDR frame).
    func forceKeyframe() {
        pointer.pointee.pict_type = AV_PICTURE_TYPE_I
    }

    func clearPictureType() {
        pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
        pointer.pointee.key_frame = 0
    }

    /// Plane `index`'s first byte and line size (bytes per row), when the plane exists.
    func plane(_ index: Int) -> (data: UnsafeMutablePointer<UInt8>, lineSize: Int)? {
        let value = pointer.pointee
        let planes = [value.data.0, value.data.1, value.data.2, value.data.3]
        let sizes = [value.linesize.0, value.linesize.1, value.linesize.2, value.linesize.3]
        guard planes.indices.contains(index), let data = planes[index] else { return nil }
        return (data, Int(sizes[index]))
    }

    /// Gives an empty frame picture buffers of `width` x `height` in pixel format `format`.
    func allocatePicture(width: Int32, height: Int32, format: Int32, stage: MediaFailure.Stage) throws(MediaFailure) {
        pointer.pointee.width = width
        pointer.pointee.height = height
        pointer.pointee.format = format
        try check(av_frame_get_buffer(pointer, 0), stage, "av_frame_get_buffer")
    }

    /// Whether the frame holds picture or sound buffers.
    var hasBuffers: Bool { pointer.pointee.data.0 != nil }

    /// A new frame referencing the same buffers (no pixel copy).
    func reference() throws(MediaFailure) -> Frame {
        let copy = try Frame()
        guard av_frame_ref(copy.pointer, pointer) >= 0 else { throw .outOfMemory(operation: "av_frame_ref") }
        return copy
    }

    /// A new frame holding this one's buffers; this one is left empty (no pixel copy).
    func movedOut() throws(MediaFailure) -> Frame {
        let kept = try Frame()
        av_frame_move_ref(kept.pointer, pointer)
        return kept
    }

    func unreference() { av_frame_unref(pointer) }
}
