internal import CFFmpeg

/// Joins the timestamp jumps of formats that allow them (MPEG-TS: an HLS-style discontinuity, a
/// concatenation of recordings) into one continuous clock, as ffmpeg does: when a packet's
/// decode time is more than `threshold` seconds away from the last one read, every later
/// timestamp is shifted so the jump closes.
struct TimestampDiscontinuity {
    /// ffmpeg's `dts_delta_threshold`.
    static let threshold: Int64 = 10 * Int64(AV_TIME_BASE)
    /// The shift applied, in `AV_TIME_BASE` units.
    private(set) var offset: Int64 = 0
    /// The latest decode time read (shifted), in `AV_TIME_BASE` units.
    private var last: Int64?

    /// Shifts `packet` (of a stream with `timeBase`) onto the continuous clock.
    mutating func correct(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) {
        let nopts = reel_nopts_value()
        let raw = packet.pointee.dts != nopts ? packet.pointee.dts : packet.pointee.pts
        guard raw != nopts, timeBase.num > 0 else { return }
        let microseconds = av_rescale_q(raw, timeBase, av_make_q(1, AV_TIME_BASE))
        if let last {
            let delta = microseconds + offset - last
            if delta > Self.threshold || delta < -Self.threshold { offset -= delta }
        }
        let shift = av_rescale_q(offset, av_make_q(1, AV_TIME_BASE), timeBase)
        if packet.pointee.pts != nopts { packet.pointee.pts += shift }
        if packet.pointee.dts != nopts { packet.pointee.dts += shift }
        last = max(last ?? .min, microseconds + offset)
    }

    /// Whether a jump was closed since the last reset.
    var hasJoinedJumps: Bool { offset != 0 }

    /// Forgets the clock after a seek (positions are then the file's own).
    mutating func reset() {
        offset = 0
        last = nil
    }
}
