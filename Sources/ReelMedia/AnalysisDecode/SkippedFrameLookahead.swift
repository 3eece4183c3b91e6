internal import CFFmpeg

/// Decides, from packet sizes alone and before decoding, which skipped B frames to decode after
/// all: those just before a reference frame that is much larger than the references before it.
/// A cut makes the encoder code the new shot's first reference frame mostly intra, so it is
/// large; the B frames before it in display order (after it in decode order) may hold the cut's
/// exact frame, and decoding them now spares a later full-rate look at that spot.
struct SkippedFrameLookahead {
    /// A reference packet this many times the mean of the recent ones opens a window.
    static let sizeRatio = 2.0
    private static let remembered = 4

    private var recentSizes: [Int] = []
    private var newest: Int64?
    /// B frames with `lower < pts < upper` are decoded.
    private var window: (lower: Int64, upper: Int64)?

    /// The skip setting for the next packet when the pass otherwise skips `level`.
    mutating func discard(forPacketOfSize size: Int, pts: Int64?, level: AVDiscard) -> AVDiscard {
        guard let pts else { return level }
        guard let newest, pts <= newest else {
            // Later than every packet so far: an I or P frame (B frames come after the
            // reference that follows them in display order).
            let mean = recentSizes.isEmpty ? 0 : Double(recentSizes.reduce(0, +)) / Double(recentSizes.count)
            if let newest, recentSizes.count >= 2, Double(size) >= Self.sizeRatio * mean {
                window = (newest, pts)
            } else {
                window = nil
            }
            recentSizes = Array((recentSizes + [size]).suffix(Self.remembered))
            self.newest = pts
            return level
        }
        if let window, pts > window.lower, pts < window.upper { return AVDISCARD_DEFAULT }
        return level
    }

    /// Forgets everything (after a seek).
    mutating func reset() { self = SkippedFrameLookahead() }
}
