import ReelSupport

/// The video side of crossfaded joins: the kept frames of a range's last `length` ticks are held
/// back (its tail), and the next range starts that much earlier on the output timeline with its
/// first frames blended over the tail, the weight rising from 0 to 1.
struct VideoCrossfade {
    /// Crossfade length in stream ticks (0: plain joins).
    let length: Int64
    /// Where the current range's tail begins on the output timeline (nil: no tail, e.g. last range).
    private(set) var tailStart: Int64?
    /// Kept frames of the current range's tail, with their output start times.
    private var collecting: [(frame: Frame, start: Int64)] = []
    /// The previous range's tail, blended under the current range's first frames.
    private var blending: [(frame: Frame, start: Int64)] = []
    /// Where blending starts on the output timeline.
    private var blendStart: Int64 = 0

    init(length: Int64) {
        self.length = max(length, 0)
    }

    /// Starts a range that ends `duration` ticks after `offset` unless it is the last; returns
    /// where the range starts on the output timeline (earlier by the crossfade when the previous
    /// range left a tail).
    mutating func beginRange(naturalOffset: Int64, duration: Int64, dissolvesAfter: Bool) -> Int64 {
        blending = collecting
        collecting = []
        var offset = naturalOffset
        if !blending.isEmpty, let previousTailStart = tailStart {
            offset = previousTailStart
            blendStart = previousTailStart
        } else {
            blending = []
        }
        tailStart = dissolvesAfter && length > 0 ? offset + duration - length : nil
        return offset
    }

    /// Whether a kept frame starting at `start` belongs to the tail (and should be held back).
    func isInTail(_ start: Int64) -> Bool {
        guard let tailStart else { return false }
        return start >= tailStart
    }

    /// Holds back a tail frame.
    mutating func collect(_ frame: Frame, start: Int64) {
        collecting.append((frame, start))
    }

    /// The frame to encode for a kept frame at `start`: blended over the previous tail inside
    /// the crossfade, the frame itself after it.
    mutating func blended(_ frame: Frame, start: Int64) throws(MediaFailure) -> Frame {
        guard !blending.isEmpty else { return frame }
        guard start < blendStart + length else {
            blending = []
            return frame
        }
        let under = blending.last { $0.start <= start } ?? blending[0]
        let weight = Double(start - blendStart) / Double(length)
        return try FrameBlender.blend(under.frame, frame, weight: weight)
    }

    /// Tail frames never blended (the next range never came): they are shown after all.
    mutating func leftovers() -> [(frame: Frame, start: Int64)] {
        defer { collecting = [] }
        return collecting
    }
}
