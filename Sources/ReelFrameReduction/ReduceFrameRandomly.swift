import ReelSupport

/// Splits time into slots of `1 / targetFrameRate` and keeps the frame on screen at one random
/// instant of each slot. Seedable for reproducible output.
public struct ReduceFrameRandomly: VideoFrameReducer {
    /// The random seed; the same seed gives the same frames.
    public var seed: UInt64

    /// Creates the reducer; pass a seed for reproducible output.
    public init(seed: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.seed = seed
    }

    /// A selector picking one random frame per slot.
    public func makeSelector(targetFrameRate: Double) -> any FrameSelector {
        Selector(frameRate: max(targetFrameRate, 0.001), generator: SplitMix64(seed: seed))
    }

    struct Selector: FrameSelector {
        let frameRate: Double
        var generator: SplitMix64
        var slot: Int64 = 0
        var pick: MediaTime?
        /// A slot whose random instant fell in a frame already kept for the slot before (a
        /// frame straddling a slot boundary, as 29.97 fps into 15 has): the next frame serves it,
        /// so no slot goes without a frame.
        var owed: MediaTime?

        mutating func select(_ frame: FrameTiming) -> FrameDecision {
            var keptAt = owed
            owed = nil
            while true {
                let instant = pick ?? nextPick()
                pick = instant
                guard instant < frame.end else { break }
                // Shown from the start of the slot its random instant fell in, so the output
                // keeps an even rate while the choice of frame within each slot is random.
                if keptAt == nil {
                    keptAt = slotStart(slot)
                } else if owed == nil {
                    owed = slotStart(slot)
                }
                pick = nil
                slot += 1
            }
            return keptAt.map { .keep(at: $0) } ?? .drop
        }

        private func slotStart(_ slot: Int64) -> MediaTime {
            MediaTime(value: slot * 1000, timescale: Int32(clamping: Int64((frameRate * 1000).rounded())))
        }

        private mutating func nextPick() -> MediaTime {
            let offset = Double.random(in: 0..<1, using: &generator)
            let seconds = (Double(slot) + offset) / frameRate
            return MediaTime(seconds: seconds, timescale: 1_000_000)
        }
    }
}

/// A small, fast, seedable generator (SplitMix64) so reducers are reproducible on every platform.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
