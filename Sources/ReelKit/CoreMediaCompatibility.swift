import ReelSupport

// Core Media's time names on ReelKit's `MediaTime` and `TimeRange`, so code written against
// Apple's documents (JMVideoCompressor's `CMTime(seconds:preferredTimescale:)` trims, the
// MediaIntelligence articles' `CMTimeGetSeconds`, `CMTimeRange` highlights) compiles on Linux
// with its imports changed to `import ReelKit`. They are the same types, not copies: a
// `CMTime` is a `MediaTime`, exact and rational as Core Media's. Core Media's invalid,
// indefinite and infinite times have no counterpart; new code should use the ReelKit names.

/// Core Media's `CMTime`: ReelKit's `MediaTime`.
public typealias CMTime = MediaTime
/// Core Media's `CMTimeRange`: ReelKit's `TimeRange`.
public typealias CMTimeRange = TimeRange
/// Core Media's `CMTimeValue`, the tick count of a time.
public typealias CMTimeValue = Int64
/// Core Media's `CMTimeScale`, ticks per second.
public typealias CMTimeScale = Int32

extension MediaTime {
    /// Core Media's `CMTime(seconds:preferredTimescale:)`: `seconds` rounded to the nearest tick
    /// of `preferredTimescale`.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        self.init(seconds: seconds, timescale: preferredTimescale)
    }
}

extension TimeRange {
    /// Core Media's `CMTimeRange(start:duration:)`: the range from `start` lasting `duration`.
    public init(start: MediaTime, duration: MediaTime) {
        self.init(start: start, end: start + duration)
    }

    /// Core Media's `CMTimeRange.zero`: the empty range at time zero.
    public static let zero = TimeRange(start: .zero, end: .zero)

    /// Core Media's `containsTime(_:)`: whether `time` lies inside `[start, end)`.
    public func containsTime(_ time: MediaTime) -> Bool { contains(time) }
}

/// Core Media's `CMTimeGetSeconds`: the time in seconds.
public func CMTimeGetSeconds(_ time: CMTime) -> Double { time.seconds }

/// Core Media's `CMTimeMake(value:timescale:)`: `value / timescale` seconds.
public func CMTimeMake(value: CMTimeValue, timescale: CMTimeScale) -> CMTime {
    CMTime(value: value, timescale: timescale)
}

/// Core Media's `CMTimeMakeWithSeconds(_:preferredTimescale:)`.
public func CMTimeMakeWithSeconds(_ seconds: Double, preferredTimescale: CMTimeScale) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// Core Media's `CMTimeAdd`: the exact sum.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { lhs + rhs }

/// Core Media's `CMTimeSubtract`: the exact difference.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { lhs - rhs }

/// Core Media's `CMTimeCompare`: -1, 0 or 1 as `time1` is before, at or after `time2`.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    time1 < time2 ? -1 : (time1 == time2 ? 0 : 1)
}

/// Core Media's `CMTimeRangeMake(start:duration:)`.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}

/// Core Media's `CMTimeRangeGetEnd`: the first instant after the range.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime { range.end }
