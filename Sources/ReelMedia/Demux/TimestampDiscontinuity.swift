internal import CFFmpeg

/// Joins the timestamp jumps of formats that allow them (MPEG-TS: an HLS-style discontinuity, a
/// concatenation of recordings) into one continuous clock, as ffmpeg does: when a packet's
/// decode time is more than `threshold` seconds away from where its stream was expected to go
/// on, or goes back at all (more than `backwardTolerance`), every later timestamp is shifted so
/// that the jump closes. Each stream is followed on its own: an MPEG-TS interleaves its video up
/// to a second or so ahead of its sound.
struct TimestampDiscontinuity {
    /// ffmpeg's `dts_delta_threshold`.
    static let threshold: Int64 = 10 * Int64(AV_TIME_BASE)
    /// A decode time this far before its stream's previous one is a jump back (HLS segments
    /// joined byte by byte start again where the first one started: a jump of one segment's
    /// length, often less than `threshold`).
    static let backwardTolerance: Int64 = Int64(AV_TIME_BASE) / 10
    /// The shift applied, in `AV_TIME_BASE` units.
    private(set) var offset: Int64 = 0
    /// Where each stream's next decode time is expected (shifted), in `AV_TIME_BASE` units.
    private var expected: [Int32: Int64] = [:]

    /// Shifts `packet` (of a stream with `timeBase`) onto the continuous clock.
    mutating func correct(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) {
        let nopts = reel_nopts_value()
        let hasDecodeTime = packet.pointee.dts != nopts
        let raw = hasDecodeTime ? packet.pointee.dts : packet.pointee.pts
        guard raw != nopts, timeBase.num > 0 else { return }
        let microsecond = av_make_q(1, AV_TIME_BASE)
        let time = av_rescale_q(raw, timeBase, microsecond)
        let stream = packet.pointee.stream_index
        if let next = expected[stream] {
            let delta = time + offset - next
            // Presentation times alone go back within a group of reordered pictures: only decode
            // times count for a jump back.
            let wentBack = hasDecodeTime && delta < -Self.backwardTolerance
            if delta > Self.threshold || delta < -Self.threshold || wentBack { offset -= delta }
        }
        let shift = av_rescale_q(offset, microsecond, timeBase)
        if packet.pointee.pts != nopts { packet.pointee.pts += shift }
        if hasDecodeTime { packet.pointee.dts += shift }
        let length = packet.pointee.duration > 0 ? av_rescale_q(packet.pointee.duration, timeBase, microsecond) : 0
        expected[stream] = max(expected[stream] ?? .min, time + offset + length)
    }

    /// Whether a jump was closed since the last reset.
    var hasJoinedJumps: Bool { offset != 0 }

    /// Forgets the clock after a seek (positions are then the file's own).
    mutating func reset() {
        offset = 0
        expected = [:]
    }
}
