import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelSupport

/// A reel of a long video closes on its story's ending, not on its climax, and never shows the
/// closing credits; on synthetic analyses shaped like the 10-minute film's.
@Suite struct StoryArcTests {
    /// 600 s in 5 s segments: ordinary material (levels 2-5), highlights early (60-70 s), in the
    /// middle (250-265 s) and a climax (400-440 s); a quiet stretch, then the ending (470-480 s,
    /// level 4.5: above the typical 3, below much ordinary material, far below the climax); credits (490-580 s, text, level
    /// 0.5) and a short scene after them (580-600 s).
    static func film(creditsLevel: Float = 0.5, quietAfterClimax: Bool = true) -> VideoAnalysis {
        var parts: [(Double, Double, Float, UInt8)] = []
        var texts: [Double] = []
        for index in 0..<120 {
            let start = Double(index) * 5
            var level = Float(2 + index % 4)
            var text = 0.0
            switch start {
            case 60..<70: level = 7
            case 250..<265: level = 8
            case 400..<440: level = 9
            case 440..<470: level = quietAfterClimax ? 1.5 : 4
            case 470..<480: level = 4.5
            case 480..<490: level = 1
            case 490..<580: level = creditsLevel; text = 1
            default: break
            }
            parts.append((start, start + 5, level, UInt8(index * 2)))
            texts.append(text)
        }
        var analysis = HighlightEditorTests.analysis(parts, sampleEvery: 1)
        for index in analysis.segments.indices {
            analysis.segments[index].features = EngagementScoringTests.features(text: texts[index])
        }
        return analysis
    }

    @Test func theCreditsAreFoundAndTheEndingIsTheLastEngagingStretchBeforeThem() throws {
        let analysis = Self.film()
        let bounds = TimeRange(start: .zero, end: MediaTime(seconds: 600, timescale: 1000))
        let arc = StoryArc(segments: analysis.segments, bounds: bounds, mergeGap: 1.5, highlightLevel: 6)
        let credits = try #require(arc.credits)
        #expect(HighlightEditorTests.pairs([credits]) == [[490, 580]])
        #expect(arc.content.end.seconds == 490)
        let ending = try #require(arc.endingPeak)
        #expect(ending.start.seconds >= 470 && ending.end.seconds <= 480, "\(ending)")
    }

    @Test func aBudgetedReelClosesOnTheEndingAndKeepsTheClimax() throws {
        var editing = HighlightEditing()
        editing.budget = 30
        let pieces = HighlightEditor.pieces(Self.film(), editing: editing)
        let last = try #require(pieces.last)
        #expect(last.start.seconds >= 468 && last.end.seconds <= 482, "\(HighlightEditorTests.pairs(pieces))")
        #expect(pieces.contains { $0.start.seconds >= 395 && $0.end.seconds <= 445 }, "the climax: \(HighlightEditorTests.pairs(pieces))")
        #expect(!pieces.contains { $0.end.seconds > 490 && $0.start.seconds < 580 }, "no credits: \(HighlightEditorTests.pairs(pieces))")
        #expect(pieces.map(\.duration.seconds).reduce(0, +) <= 30 + 1e-6)
        // Without the story's arc (the analysis's own highlights) the ending is not a highlight.
        editing.spansTheStory = false
        let plain = HighlightEditor.pieces(Self.film(), editing: editing)
        #expect(!plain.contains { $0.start.seconds >= 468 && $0.end.seconds <= 482 }, "\(HighlightEditorTests.pairs(plain))")
    }

    @Test func theWholeReelAddsTheEndingAndTheHighlightsDoNot() {
        let reel = HighlightEditor.pieces(Self.film(), editing: HighlightEditing())
        #expect(reel.last.map { $0.start.seconds >= 468 && $0.end.seconds <= 482 } == true, "\(HighlightEditorTests.pairs(reel))")
        let highlights = HighlightSelector.highlights(Self.film(), minimumLevel: nil)
        #expect(highlights.count == reel.count - 1, "\(HighlightEditorTests.pairs(highlights))")
        #expect(highlights.allSatisfy { $0.end.seconds <= 445 })
    }

    /// An edit whose last highlight runs on into its close (the passages edit's last action
    /// passage) has no separate ending: its highlights are chosen as they are.
    @Test func aClimaxRunningIntoTheCloseIsNotAnEnding() {
        let analysis = Self.film(quietAfterClimax: false)
        let bounds = TimeRange(start: .zero, end: MediaTime(seconds: 600, timescale: 1000))
        let arc = StoryArc(segments: analysis.segments, bounds: bounds, mergeGap: 1.5, highlightLevel: 6)
        #expect(arc.ending.isEmpty && arc.endingPeak == nil, "\(arc.ending.map(\.timeRange))")
    }

    @Test func textThatIsEngagingIsNotCredits() {
        let analysis = Self.film(creditsLevel: 6)
        let bounds = TimeRange(start: .zero, end: MediaTime(seconds: 600, timescale: 1000))
        let arc = StoryArc(segments: analysis.segments, bounds: bounds, mergeGap: 1.5, highlightLevel: 6)
        #expect(arc.credits == nil)
        #expect(arc.content.end.seconds == 600)
    }

    @Test func aReelOfAThirdOfTheStoryOrMoreIsFilledAsBefore() {
        var editing = HighlightEditing()
        editing.budget = 300
        let long = HighlightEditor.pieces(Self.film(), editing: editing)
        var fill = HighlightEditing()
        fill.budget = 300
        fill.spansTheStory = false
        #expect(long == HighlightEditor.pieces(Self.film(), editing: fill), "a reel of half the story is filled as before")
    }
}
