import Foundation
import ReelAnalysis
import ReelCompression
import ReelMedia
import ReelSupport

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
    /// Seconds of crossfade at each join (the compression's `crossfadeDuration`): each join
    /// shortens the reel by this much, so the budget holds more of the source.
    public var crossfadeDuration: Double
    /// Range edges within this many seconds of a shot boundary move onto it.
    public var snapDistance: Double
    /// An analysis of this source to reuse; `nil` runs the analyzer first.
    public var analysis: VideoAnalysis?
    /// A reel of one person: only moments they are on screen, and a reframed reel frames them.
    public var person: ReelPerson?
    /// Seconds the reel fades in from black and silence at its start and out at its end (0:
    /// none), unless `CompressionConfig.edgeFadeDuration` says otherwise. 0.4 s by default: long
    /// enough to read as a fade rather than a glitch, short enough not to hide the first and
    /// last moments a reel keeps.
    public var edgeFadeDuration: Double
    /// The loudness the reel is brought to (`nil`: the source's), unless
    /// `CompressionConfig.loudness` says otherwise. -14 LUFS by default, peaks at most -1 dBTP.
    public var loudness: LoudnessTarget?

    /// Creates highlight reel options.
    public init(maximumDuration: Double? = nil, minimumLevel: Float? = nil, minimumRangeDuration: Double = 2,
                snapDistance: Double = 0.5, crossfadeDuration: Double = 0, analysis: VideoAnalysis? = nil,
                person: ReelPerson? = nil, edgeFadeDuration: Double = 0.4, loudness: LoudnessTarget? = .streaming) {
        self.person = person
        self.loudness = loudness
        self.edgeFadeDuration = edgeFadeDuration
        self.crossfadeDuration = crossfadeDuration
        self.maximumDuration = maximumDuration
        self.minimumLevel = minimumLevel
        self.minimumRangeDuration = minimumRangeDuration
        self.snapDistance = snapDistance
        self.analysis = analysis
    }
}

extension TrimSelection {
    /// A highlight reel: the source is analyzed by `analyzer` (unless `options` carries an
    /// analysis), its highlight ranges picked, and only those compressed, in time order.
    public static func highlights(_ options: HighlightReelOptions, analyzer: VideoAnalyzer = .shared) -> TrimSelection {
        .planned(HighlightReelTrim(options: options, analyzer: analyzer))
    }
}

/// The `TrimPlanner` behind `TrimSelection.highlights`: analysis (or a given one), then
/// `HighlightReelPlanner`.
public struct HighlightReelTrim: TrimPlanner, Equatable {
    /// How the reel is cut.
    public var options: HighlightReelOptions
    /// The analyzer that runs when `options` carries no analysis.
    public var analyzer: VideoAnalyzer

    /// Creates the planner.
    public init(options: HighlightReelOptions, analyzer: VideoAnalyzer = .shared) {
        self.options = options
        self.analyzer = analyzer
    }

    /// The analysis takes about a third of a reel's progress; none when it is given.
    public var progressShare: Double { options.analysis == nil ? 0.3 : 0 }

    /// The reel's budget.
    public var maximumDuration: Double? { options.maximumDuration }

    /// Analyzes `source` (unless an analysis was given) and picks the reel's ranges.
    public func ranges(
        of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void
    ) async throws(ReelError) -> [TimeRange] {
        try await plan(of: source, progressHandler: progressHandler).ranges
    }

    /// Analyzes `source` (unless an analysis was given) and picks the reel's ranges, with the
    /// analysis they came from as the basis (`CompressionPlan.analysis`, `CompressionResult.analysis`).
    public func plan(
        of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void
    ) async throws(ReelError) -> PlannedTrim {
        let analysis: VideoAnalysis
        if let given = options.analysis {
            try given.requireSource(source)
            analysis = given
        } else {
            analysis = try await analyzer.analysis(
                of: MediaIntelligenceVideoAsset(url: source.url), probed: source, progressHandler: progressHandler)
        }
        if Task.isCancelled { throw .cancelled }
        if let person = options.person {
            let seen = try await person.appearances(in: source)
            let theirs = analysis.keepingSegments(within: seen.ranges)
            let level = options.minimumLevel ?? theirs.personLevel(usual: HighlightEditing.defaultLevel)
            let ranges = HighlightReelPlanner.ranges(for: theirs, options: options, defaultLevel: level)
            guard !ranges.isEmpty else {
                throw .nothingToKeep(source.url, reason: "\(person.entityID) is on screen, but in no part "
                    + "engaging enough at level \(level) or above; give a budget (--max-duration) or a lower --min-level")
            }
            let focus = seen.faces.compactMap { face in
                face.time.map { FramingFocus(time: $0.seconds, box: face.bounds) }
            }
            return PlannedTrim(ranges: ranges, basis: analysis, focus: focus, edgeFadeDuration: options.edgeFadeDuration,
                               loudness: options.loudness)
        }
        let planned = HighlightReelPlanner.ranges(for: analysis, options: options)
        guard !planned.isEmpty else {
            throw .nothingToKeep(source.url, reason: "no highlights at level "
                + "\(options.minimumLevel ?? HighlightEditing.defaultLevel) or above (nothing in it stands out); "
                + "give a budget (--max-duration) or a lower --min-level")
        }
        // On a fixed camera, people would jump in place at a join: those joins dissolve, the others cut.
        let (ranges, jumps) = Self.withDissolvesInTheBudget(planned, JoinLooks.jumpCuts(planned, in: analysis), options: options) {
            let again = HighlightReelPlanner.ranges(for: analysis, options: $0)
            return (again, JoinLooks.jumpCuts(again, in: analysis))
        }
        return PlannedTrim(ranges: ranges, basis: analysis, joinCrossfade: jumps.contains(true) ? Self.jumpCutDissolve : nil,
                           cutJoins: Set(jumps.indices.filter { !jumps[$0] }),
                           edgeFadeDuration: options.edgeFadeDuration, loudness: options.loudness)
    }

    /// Seconds of the dissolve at joins that would be jump cuts.
    public static let jumpCutDissolve = 0.5

    /// The dissolves at jump-cut joins overlap their pieces, so a reel planned to the budget
    /// plays shorter by half a second a dissolve (vtest's 12 s reel played 10.5 s). With a
    /// budget and no crossfade of the caller's, the reel is planned again allowing for them, and
    /// kept when it plays longer and still within the budget.
    static func withDissolvesInTheBudget(
        _ ranges: [TimeRange], _ jumps: [Bool], options: HighlightReelOptions,
        replan: (HighlightReelOptions) -> ([TimeRange], [Bool])
    ) -> ([TimeRange], [Bool]) {
        func playing(_ ranges: [TimeRange], _ jumps: [Bool]) -> Double {
            ranges.map(\.duration.seconds).reduce(0, +) - Double(jumps.filter { $0 }.count) * jumpCutDissolve
        }
        let dissolves = jumps.filter { $0 }.count
        guard let budget = options.maximumDuration, options.crossfadeDuration == 0, dissolves > 0 else { return (ranges, jumps) }
        var roomier = options
        roomier.maximumDuration = budget + Double(dissolves) * jumpCutDissolve
        let (again, againJumps) = replan(roomier)
        let length = playing(again, againJumps)
        return length <= budget + 1e-3 && length > playing(ranges, jumps) ? (again, againJumps) : (ranges, jumps)
    }

    public static func == (lhs: HighlightReelTrim, rhs: HighlightReelTrim) -> Bool {
        lhs.options == rhs.options && lhs.analyzer === rhs.analyzer
    }
}

extension VideoAnalysis {
    /// Throws `ReelError.invalidConfiguration` naming `source` when this analysis was made from
    /// another file (a saved analysis passed with the wrong video).
    public func requireSource(_ source: MediaInfo) throws(ReelError) {
        if let reason = mismatch(with: source) {
            throw .invalidConfiguration("the given analysis is of another video: \(reason)", file: source.url)
        }
    }
}

extension VideoAnalysis: TrimBasis {
    /// The analysis ends where the picture's and the sound's data end when the file is cut short.
    public var coveredDuration: Double? { duration }
}

extension CompressionPlan {
    /// The analysis a highlight reel's ranges were picked from (run while planning, or the one
    /// given in `HighlightReelOptions.analysis`); `nil` for other trims.
    public var analysis: VideoAnalysis? { trimBasis as? VideoAnalysis }
}

extension CompressionResult {
    /// The analysis a highlight reel's ranges were picked from; `nil` for other trims and for
    /// results read back from JSON.
    public var analysis: VideoAnalysis? { trimBasis as? VideoAnalysis }
}
