import Foundation
import Synchronization
import Testing
@testable import ReelAnalysis
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// The analyzer on the story clip (see Fixtures/make-fixtures.sh): black, stills with faint noise
/// and near-silence, and two loud high-motion parts, with cuts at 2, 6, 10, 21 s and a fade
/// through black around [14, 15).
@Suite(.timeLimit(.minutes(5))) struct AnalyzerTests {
    static let action = [(6.0, 10.0), (15.5, 21.0)]
    static let cuts = [2.0, 6.0, 10.0, 21.0]

    static func storyAsset() throws -> MediaIntelligenceVideoAsset {
        MediaIntelligenceVideoAsset(id: "story", kind: .url(try Fixtures.clip("story.mp4")))
    }

    /// Seconds of overlap between two sets of ranges.
    static func overlap(_ ranges: [(Double, Double)], _ others: [(Double, Double)]) -> Double {
        ranges.flatMap { a in others.map { b in max(0, min(a.1, b.1) - max(a.0, b.0)) } }.reduce(0, +)
    }

    @Test func highlightsFindTheActionAndLevelsRankIt() async throws {
        let analysis = try await VideoAnalyzer().analysis(of: Self.storyAsset())
        let result = try HighlightAnalysisRequest().result(from: analysis)
        let highlights = result.highlights.map { ($0.start.seconds, $0.end.seconds) }
        let overlap = Self.overlap(highlights, Self.action)
        let precision = overlap / max(highlights.map { $0.1 - $0.0 }.reduce(0, +), 1e-9)
        let recall = overlap / Self.action.map { $0.1 - $0.0 }.reduce(0, +)
        let f1 = 2 * precision * recall / max(precision + recall, 1e-9)
        #expect(f1 >= 0.8, "highlights \(highlights), levels \(result.levels.map { ($0.timeRange.description, $0.level) })")
        // Chronological, non-overlapping.
        for (a, b) in zip(result.highlights, result.highlights.dropFirst()) { #expect(a.end <= b.start) }
        // Levels cover the whole duration contiguously.
        #expect(result.levels.first?.timeRange.start == .zero)
        #expect(abs((result.levels.last?.timeRange.end.seconds ?? 0) - 24) < 0.05)
        for (a, b) in zip(result.levels, result.levels.dropFirst()) { #expect(a.timeRange.end == b.timeRange.start) }
        #expect(result.levels.allSatisfy { (0...9).contains($0.level) })
        // Each highlight is one of the levels; the segments as measured rank the action.
        #expect(result.highlights.allSatisfy { result.level(of: $0) != nil })
        func meanLevel(_ start: Double, _ end: Double) -> Float {
            let inside = analysis.segments.filter { $0.timeRange.start.seconds >= start - 0.01 && $0.timeRange.end.seconds <= end + 0.01 }
            return inside.map(\.level).reduce(0, +) / Float(max(inside.count, 1))
        }
        let black = meanLevel(0, 2), still = meanLevel(2, 6), action = meanLevel(6, 10), secondAction = meanLevel(16, 21)
        #expect(action > still + 2 && secondAction > still + 2, "black \(black) still \(still) action \(action) \(secondAction)")
        #expect(still >= black, "levels are relative: the black opening and the still share the bottom")
        #expect(black < 1)
    }

    @Test func cutsAreFoundToTheFrameAndTheFadeIsABoundary() async throws {
        let result = try await VideoAnalyzer().analyze(Self.storyAsset(), for: ShotAnalysisRequest()).get()
        let cuts = result.boundaries.filter { $0.kind == .cut }.map(\.time.seconds)
        for expected in Self.cuts {
            #expect(cuts.contains { abs($0 - expected) < 0.5 / 30 }, "cuts \(cuts)")
        }
        #expect(cuts.count == Self.cuts.count, "cuts \(cuts)")
        let gradual = result.boundaries.filter { $0.kind == .gradual }.map(\.time.seconds)
        #expect(gradual.contains { (13.5...15.5).contains($0) }, "gradual \(gradual)")
        #expect(result.shots.count == result.boundaries.count + 1)
    }

    @Test func keyFrameIsAWellExposedDecodedFrameOutsideTransitions() async throws {
        let result = try await VideoAnalyzer().analyze(Self.storyAsset(), for: KeyFrameAnalysisRequest()).get()
        let time = result.timestamp.seconds
        #expect(!(0..<2.2).contains(time), "key frame at \(time)")
        #expect(!(12.9..<16.1).contains(time), "key frame at \(time)")
        // An exact frame time at 30 fps.
        #expect(abs(time * 30 - (time * 30).rounded()) < 1e-6)
    }

    @Test func severalRequestsDecodeOnce() async throws {
        let analyzer = VideoAnalyzer()
        let (highlights, keyFrame, shots) = try await analyzer.analyze(
            Self.storyAsset(), for: HighlightAnalysisRequest(), KeyFrameAnalysisRequest(), ShotAnalysisRequest())
        #expect(analyzer.decodePassCount == 1)
        #expect((try? highlights.get()) != nil)
        #expect((try? keyFrame.get()) != nil)
        #expect((try? shots.get())?.shots.isEmpty == false)
    }
}

/// `VideoAnalysis` is `Codable`: a saved analysis decodes to the same value, and knows its file.
@Suite(.timeLimit(.minutes(5))) struct SavedAnalysisCodingTests {
    @Test func anAnalysisRoundTripsThroughJSON() async throws {
        let url = try Fixtures.clip("story.mp4")
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: url))
        let data = try JSONEncoder().encode(analysis)
        let decoded = try JSONDecoder().decode(VideoAnalysis.self, from: data)
        #expect(decoded == analysis)
        #expect(decoded.sourceFileSize == (try MediaInfo.probe(url)).fileSize)
        #expect(decoded.mismatch(with: try MediaInfo.probe(url)) == nil)
        let other = try MediaInfo.probe(try Fixtures.clip("keyframe.mp4"))
        #expect(decoded.mismatch(with: other) != nil)
        #expect(throws: ReelError.self) { try decoded.requireSource(other) }
    }
}
