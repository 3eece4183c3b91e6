/// An exact time parsed from the command line: `value / timescale` seconds.
///
/// The timescale is `10^d` where `d` is the number of decimal places typed (at most 9),
/// so `"00:00:12.250"` is `12250/1000` and `"1.5"` is `15/10`; nothing is rounded.
public struct ParsedTime: Sendable, Hashable, CustomStringConvertible {
    /// The numerator: a count of `1 / timescale` second ticks.
    public var value: Int64
    /// Ticks per second: 1, 10, 100, ... up to 1 000 000 000.
    public var timescale: Int32

    /// Creates `value / timescale` seconds.
    public init(value: Int64, timescale: Int32) {
        self.value = value
        self.timescale = timescale
    }

    /// The time in seconds, for display and arithmetic that tolerates rounding.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The time as `value/timescale`, e.g. `12250/1000`.
    public var description: String { "\(value)/\(timescale)" }

    /// Whether this time is earlier than `other`, compared exactly.
    func isBefore(_ other: ParsedTime) -> Bool {
        Int128(value) * Int128(other.timescale) < Int128(other.value) * Int128(timescale)
    }
}

/// A span of time parsed from `START-END`, with `start` before `end`.
public struct ParsedTimeRange: Sendable, Hashable {
    /// Where the range begins.
    public var start: ParsedTime
    /// Where the range ends; always after `start`.
    public var end: ParsedTime

    /// Creates a range from its bounds.
    public init(start: ParsedTime, end: ParsedTime) {
        self.start = start
        self.end = end
    }
}
