/// A half-open span of media time, `[start, end)`, like Core Media's `CMTimeRange`.
public struct TimeRange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The first instant inside the range.
    public var start: MediaTime
    /// The first instant after the range.
    public var end: MediaTime

    /// Creates the range `[start, end)`.
    public init(start: MediaTime, end: MediaTime) {
        self.start = start
        self.end = end
    }

    /// The length of the range (negative when `end < start`).
    public var duration: MediaTime { end - start }

    /// Whether the range holds no time.
    public var isEmpty: Bool { end <= start }

    /// Whether `time` lies inside `[start, end)`.
    public func contains(_ time: MediaTime) -> Bool { time >= start && time < end }

    public var description: String { "[\(start.seconds) s, \(end.seconds) s)" }
}
