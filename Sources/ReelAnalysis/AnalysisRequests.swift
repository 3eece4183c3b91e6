import ReelMedia
import ReelSupport

/// A question to ask of a video; several can share one decode in `VideoAnalyzer.analyze`.
public protocol AnalysisRequest: Sendable {
    /// What the request produces (each request's `Result`, as MediaIntelligence names it).
    associatedtype Output: Sendable
    /// Reads this request's answer from a finished analysis.
    func result(from analysis: VideoAnalysis) throws(ReelError) -> Output
}

/// Finds the single frame that best represents the video.
public struct KeyFrameAnalysisRequest: AnalysisRequest {
    /// The key frame: the exact presentation time of a decoded frame (MediaIntelligence's
    /// `KeyFrameAnalysisRequest.Result`).
    public struct Result: Sendable, Equatable, Codable {
        /// When the frame is shown.
        public var timestamp: MediaTime

        /// Creates the output (for mocks).
        public init(timestamp: MediaTime) { self.timestamp = timestamp }
    }

    /// The request's output under `AnalysisRequest`'s name for it.
    public typealias Output = Result

    /// Creates the request.
    public init() {}

    public func result(from analysis: VideoAnalysis) throws(ReelError) -> Result {
        guard let time = analysis.keyFrame else {
            throw .invalidConfiguration("no frame to choose a key frame from")
        }
        return Result(timestamp: time)
    }
}

/// Finds the most engaging segments and the engagement level of every segment.
public struct HighlightAnalysisRequest: AnalysisRequest {
    /// Highlights, levels and shots (MediaIntelligence's `HighlightAnalysisRequest.Result`).
    public struct Result: Sendable, Equatable, Codable {
        /// The most engaging stretches, chronological and non-overlapping (possibly none). Each
        /// is also an entry of `levels`.
        public var highlights: [TimeRange]
        /// Every segment of the timeline, contiguous from start to end, with a level from 0 to 9.
        /// The analysis's segments are cut at the highlights' edges and each highlight is one
        /// entry, whose level is the highest of the segments it spans (`level(of:)`); the other
        /// entries keep their segment's level. `VideoAnalysis.segments` keeps the segments as
        /// measured.
        public var levels: [(timeRange: TimeRange, level: Float)]
        /// The shots the segments follow.
        public var shots: [TimeRange]

        /// Creates the output (for mocks).
        public init(highlights: [TimeRange], levels: [(timeRange: TimeRange, level: Float)], shots: [TimeRange]) {
            self.highlights = highlights
            self.levels = levels
            self.shots = shots
        }

        /// The level of `range` when it is one of `levels` (every highlight is), else `nil`.
        public func level(of range: TimeRange) -> Float? {
            levels.first { $0.timeRange == range }?.level
        }

        public static func == (lhs: Result, rhs: Result) -> Bool {
            lhs.highlights == rhs.highlights && lhs.shots == rhs.shots && lhs.levels.map(\.timeRange) == rhs.levels.map(\.timeRange)
                && lhs.levels.map(\.level) == rhs.levels.map(\.level)
        }

        private struct Level: Codable { var timeRange: TimeRange; var level: Float }
        private enum CodingKeys: String, CodingKey { case highlights, levels, shots }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            highlights = try container.decode([TimeRange].self, forKey: .highlights)
            levels = try container.decode([Level].self, forKey: .levels).map { ($0.timeRange, $0.level) }
            shots = try container.decode([TimeRange].self, forKey: .shots)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(highlights, forKey: .highlights)
            try container.encode(levels.map { Level(timeRange: $0.timeRange, level: $0.level) }, forKey: .levels)
            try container.encode(shots, forKey: .shots)
        }
    }

    /// The request's output under `AnalysisRequest`'s name for it.
    public typealias Output = Result

    /// The lowest level a highlight may have; `nil` uses `HighlightEditing.defaultLevel` (6).
    public var minimumLevel: Float?

    /// Creates the request.
    public init(minimumLevel: Float? = nil) {
        self.minimumLevel = minimumLevel
    }

    /// The highlights, and the levels split so that each highlight is one of them.
    public func result(from analysis: VideoAnalysis) throws(ReelError) -> Result {
        let split = HighlightLevels.split(analysis.segments, at: HighlightSelector.highlights(analysis, minimumLevel: minimumLevel))
        return Result(highlights: split.highlights, levels: split.levels, shots: analysis.shots)
    }
}

/// Finds the shots: cuts placed on the exact frame, fades and dissolves as boundaries too.
public struct ShotAnalysisRequest: AnalysisRequest {
    /// Shots and the boundaries between them.
    public struct Result: Sendable, Equatable, Codable {
        /// The shots, contiguous from start to end.
        public var shots: [TimeRange]
        /// Where and how shots change.
        public var boundaries: [ShotBoundary]

        /// Creates the output (for mocks).
        public init(shots: [TimeRange], boundaries: [ShotBoundary]) {
            self.shots = shots
            self.boundaries = boundaries
        }
    }

    /// The request's output under `AnalysisRequest`'s name for it.
    public typealias Output = Result

    /// Creates the request.
    public init() {}

    public func result(from analysis: VideoAnalysis) throws(ReelError) -> Result {
        Result(shots: analysis.shots, boundaries: analysis.boundaries)
    }
}

extension HighlightAnalysisRequest {
    /// The highlight ranges this request picks from an analysis (`result(from:).highlights`).
    public func highlights(in analysis: VideoAnalysis) -> [TimeRange] {
        HighlightLevels.split(analysis.segments, at: HighlightSelector.highlights(analysis, minimumLevel: minimumLevel)).highlights
    }
}
