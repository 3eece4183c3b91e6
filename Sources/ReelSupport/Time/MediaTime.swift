/// An exact rational time, `value / timescale` seconds, like Core Media's `CMTime`.
public struct MediaTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The numerator: a count of `1 / timescale` second ticks.
    public var value: Int64
    /// Ticks per second; always positive.
    public var timescale: Int32

    /// The zero time.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// Creates `value / timescale` seconds; a non-positive timescale is treated as 1.
    public init(value: Int64, timescale: Int32) {
        self.value = value
        self.timescale = timescale > 0 ? timescale : 1
    }

    /// Creates a time from seconds, rounded to the nearest tick of `timescale`.
    public init(seconds: Double, timescale: Int32 = 90_000) {
        let scale = timescale > 0 ? timescale : 1
        self.init(value: Int64((seconds * Double(scale)).rounded()), timescale: scale)
    }

    /// The time in seconds, for display and JSON only.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The same instant expressed in another timescale, rounded to the nearest tick.
    public func converted(to newTimescale: Int32) -> MediaTime {
        guard newTimescale > 0, newTimescale != timescale else { return self }
        let scaled = Int128(value) * Int128(newTimescale)
        let divisor = Int128(timescale)
        let half = divisor / 2
        let rounded = scaled >= 0 ? (scaled + half) / divisor : (scaled - half) / divisor
        return MediaTime(value: Int64(clamping: rounded), timescale: newTimescale)
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
    }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
    }

    public func hash(into hasher: inout Hasher) {
        let divisor = Self.gcd(Swift.abs(value), Int64(timescale))
        hasher.combine(value / max(divisor, 1))
        hasher.combine(Int64(timescale) / max(divisor, 1))
    }

    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs, +)
    }

    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs, -)
    }

    public var description: String { "\(value)/\(timescale) (\(seconds) s)" }

    private static func combine(
        _ lhs: MediaTime, _ rhs: MediaTime, _ operation: (Int128, Int128) -> Int128
    ) -> MediaTime {
        if lhs.timescale == rhs.timescale {
            return MediaTime(
                value: Int64(clamping: operation(Int128(lhs.value), Int128(rhs.value))),
                timescale: lhs.timescale)
        }
        // The least common multiple keeps the result exact; past Int32 the finer scale rounds.
        let common = Int64(lhs.timescale) / gcd(Int64(lhs.timescale), Int64(rhs.timescale)) * Int64(rhs.timescale)
        let scale = common <= Int64(Int32.max) ? Int32(common) : max(lhs.timescale, rhs.timescale)
        let left = lhs.converted(to: scale)
        let right = rhs.converted(to: scale)
        return MediaTime(
            value: Int64(clamping: operation(Int128(left.value), Int128(right.value))),
            timescale: scale)
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
