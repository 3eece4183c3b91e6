/// Which parts of a source a compression keeps.
public enum TrimSelection: Sendable, Equatable {
    /// The whole source (or the one range of `trimStartTime`/`trimEndTime`).
    case whole
    /// These source ranges, in the order given, joined end to end. They must lie inside the
    /// source, be non-empty and not overlap.
    case ranges([TimeRange])
    /// The analyzer's highlights, as a highlight reel.
    case highlights(HighlightReelOptions)
}

/// How a highlight reel is cut from the analyzer's results.
public struct HighlightReelOptions: Sendable, Equatable {
    /// The longest the reel may be, in seconds; `nil` keeps every highlight. With a budget the
    /// most engaging segments are taken first until it is filled, then put back in time order.
    public var maximumDuration: Double?
    /// Segments below this level are never used; `nil` uses the highlights' own threshold
    /// (without a budget) or takes any level (with one).
    public var minimumLevel: Float?
    /// Shortest range kept, in seconds; shorter picks are widened around their middle.
    public var minimumRangeDuration: Double
    /// Range edges within this many seconds of a shot boundary move onto it.
    public var snapDistance: Double
    /// An analysis of this source to reuse; `nil` runs the analyzer first.
    public var analysis: VideoAnalysis?

    /// Creates highlight reel options.
    public init(maximumDuration: Double? = nil, minimumLevel: Float? = nil, minimumRangeDuration: Double = 1.5,
                snapDistance: Double = 0.5, analysis: VideoAnalysis? = nil) {
        self.maximumDuration = maximumDuration
        self.minimumLevel = minimumLevel
        self.minimumRangeDuration = minimumRangeDuration
        self.snapDistance = snapDistance
        self.analysis = analysis
    }
}
