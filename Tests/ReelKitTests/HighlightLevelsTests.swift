import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelSupport

/// A `HighlightAnalysisRequest`'s levels are the segments cut at the highlights' edges, each
/// highlight one entry, while the stored analysis keeps its segments.
@Suite(.timeLimit(.minutes(5))) struct HighlightLevelsTests {
    static func seconds(_ value: Double) -> MediaTime { MediaTime(seconds: value, timescale: 1000) }
    static func range(_ start: Double, _ end: Double) -> TimeRange { TimeRange(start: seconds(start), end: seconds(end)) }

    static func segments(_ parts: [(Double, Double, Float)]) -> [EngagementSegment] {
        parts.map { EngagementSegment(timeRange: range($0.0, $0.1), level: $0.2, features: EngagementScoringTests.features()) }
    }

    @Test func highlightEdgesInsideSegmentsSplitThem() {
        let segments = Self.segments([(0, 4, 2), (4, 6, 7), (6, 8, 8.5), (8, 12, 3), (12, 16, 6.5)])
        // Edges inside segments (as EditPoints leaves them: a pause, not the cut), one
        // highlight reaching the end; times in another timescale than the segments'.
        let highlights = [TimeRange(start: MediaTime(value: 33, timescale: 10), end: Self.seconds(8.6)),
                          TimeRange(start: MediaTime(value: 1_290, timescale: 100), end: MediaTime(value: 16, timescale: 1))]
        let split = HighlightLevels.split(segments, at: highlights)
        #expect(split.highlights == highlights)
        #expect(split.levels.map(\.timeRange) == [Self.range(0, 3.3), highlights[0], Self.range(8.6, 12), Self.range(12, 12.9), highlights[1]])
        // A highlight's level is the highest of the segments it spans; the pieces keep theirs.
        #expect(split.levels.map(\.level) == [2, 8.5, 3, 6.5, 6.5])
    }

    @Test func withoutHighlightsTheLevelsAreTheSegments() {
        let segments = Self.segments([(0, 4, 2), (4, 6, 7), (6, 8, 8.5)])
        let split = HighlightLevels.split(segments, at: [])
        #expect(split.levels.map(\.timeRange) == segments.map(\.timeRange))
        #expect(split.levels.map(\.level) == segments.map(\.level))
    }

    @Test func aHighlightPastTheSegmentsIsKeptInsideThem() {
        let segments = Self.segments([(0, 4, 2), (4, 6, 7)])
        let split = HighlightLevels.split(segments, at: [Self.range(3, 6.04)])
        #expect(split.highlights == [Self.range(3, 6)])
        #expect(split.levels.map(\.timeRange) == [Self.range(0, 3), Self.range(3, 6)])
    }

    @Test func theRequestSplitsItsLevelsAndLeavesTheAnalysisAlone() throws {
        // Two runs at 6 and above, each widened to the 2 s minimum piece and snapped nowhere
        // (no cuts): their edges fall inside the neighbouring segments.
        let analysis = HighlightEditorTests.analysis([(0, 3, 1, 10), (3, 4, 8, 80), (4, 9, 2, 30), (9, 10, 7, 150), (10, 14, 1, 200)])
        let result = try HighlightAnalysisRequest().result(from: analysis)
        #expect(result.highlights.count == 2)
        #expect(!result.highlights.contains { highlight in analysis.segments.contains { $0.timeRange == highlight } })
        for highlight in result.highlights {
            #expect(result.level(of: highlight) == analysis.peakLevel(in: highlight))
        }
        #expect(result.highlights == HighlightAnalysisRequest().highlights(in: analysis))
        #expect(result.levels.first?.timeRange.start == .zero && result.levels.last?.timeRange.end == Self.seconds(14))
        for (a, b) in zip(result.levels, result.levels.dropFirst()) { #expect(a.timeRange.end == b.timeRange.start) }
        #expect(analysis.segments.map(\.timeRange) == [Self.range(0, 3), Self.range(3, 4), Self.range(4, 9), Self.range(9, 10), Self.range(10, 14)])
    }
}
