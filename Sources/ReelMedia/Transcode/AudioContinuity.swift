/// Keeps the decoded sound of one range on one clock that never goes back.
///
/// A decoder hands out one unbroken run of samples, but the timestamps those samples arrive
/// with can disagree with it. After a seek into an AVI whose audio chunks do not begin on frame
/// boundaries (AC-3 written by VirtualDub, say), the demuxer's first packet is the tail of a
/// frame stamped with the chunk's time. The decoder rejects it, but FFmpeg's parser times the
/// following whole frames from it, so they come out up to a frame late. The next chunk's
/// timestamp is right again, and the frame it starts then begins before the previous frame
/// ends. Passed on, such overlaps become encoder frames that go back in time, and the muxer
/// refuses them ("non monotonically increasing dts").
///
/// The continuity trusts the later timestamp (it comes from the container's index), so the
/// sound stays in sync with the picture: a frame that overlaps what came before loses the
/// overlapping samples, or is dropped when all of it overlaps. Differences within `tolerance`
/// are rounding (Matroska stamps sound in milliseconds) and are closed up. A frame without a
/// timestamp continues the clock. Gaps are left as they are. A change of rate keeps the clock,
/// counted in the new rate from there on.
struct AudioContinuity {
    /// How far (seconds) a frame's timestamp may be from the end of the frame before it and
    /// still count as following it directly.
    static let tolerance = 0.002

    /// Where a frame goes on the clock.
    enum Placement: Equatable {
        /// Keep the frame, starting at `start` (samples; `nil` when there is no clock yet and
        /// the frame has no timestamp), without its first `droppingLeading` samples.
        case keep(start: Int64?, droppingLeading: Int)
        /// Drop the whole frame: everything in it was already played.
        case drop
    }

    private var end: Int64?
    private var rate: Int32 = 0

    /// Forgets the clock (a new range starts after a seek).
    mutating func reset() {
        end = nil
    }

    /// Places a frame of `count` samples at `rate` whose timestamp is `stamp` (in samples at
    /// `rate`, `nil` when it has none).
    mutating func place(stamp: Int64?, count: Int, rate: Int32) -> Placement {
        if rate != self.rate {
            // The sound changed its rate mid-stream: the clock goes on, counted in the new rate.
            if let end, self.rate > 0 {
                self.end = Int64((Double(end) * Double(rate) / Double(self.rate)).rounded())
            }
            self.rate = rate
        }
        let length = Int64(max(count, 0))
        guard let expected = end else {
            end = stamp.map { $0 + length }
            return .keep(start: stamp, droppingLeading: 0)
        }
        let start = stamp ?? expected
        let slack = Int64((Double(rate) * Self.tolerance).rounded())
        if start > expected + slack {
            end = start + length
            return .keep(start: start, droppingLeading: 0)
        }
        if start >= expected - slack {
            end = expected + length
            return .keep(start: expected, droppingLeading: 0)
        }
        let overlap = expected - start
        guard overlap < length else { return .drop }
        end = expected + length - overlap
        return .keep(start: expected, droppingLeading: Int(overlap))
    }
}
