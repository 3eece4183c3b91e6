import Foundation
import ReelAnalysis
import ReelCompression
import ReelMedia
import ReelSupport

extension TargetQuality {
    /// A target of `value` in `metric`, shot by shot along the shots `analyzer` finds.
    public static func analyzedShots(_ metric: Metric, _ value: Double, analyzer: VideoAnalyzer = .shared) -> TargetQuality {
        TargetQuality(metric, value, shots: AnalyzedShots(analyzer: analyzer))
    }
}

/// The `ShotPlanner` that runs the video analyzer and returns the starts of its shots.
public struct AnalyzedShots: ShotPlanner, Equatable {
    /// The analyzer that finds the shots.
    public var analyzer: VideoAnalyzer

    /// Creates the planner.
    public init(analyzer: VideoAnalyzer = .shared) { self.analyzer = analyzer }

    /// The starts of `source`'s shots after the first, on the API's timeline.
    public func shotStarts(of source: MediaInfo) async throws(ReelError) -> [Double] {
        let analysis = try await analyzer.analysis(of: MediaIntelligenceVideoAsset(url: source.url), probed: source, progressHandler: { _ in })
        return analysis.shots.dropFirst().map(\.start.seconds)
    }

    public static func == (lhs: AnalyzedShots, rhs: AnalyzedShots) -> Bool { lhs.analyzer === rhs.analyzer }
}
