import ReelAnalysis
import ReelSupport

/// Turns an analysis into the source ranges of a highlight reel (see `HighlightReelOptions`),
/// through the analyzer's `HighlightEditor`: runs of engaging segments, merged across gaps under
/// 1.5 s, at least `minimumRangeDuration` each, edges moved onto shot boundaries within
/// `snapDistance`, repeated content kept once. With a budget, the strongest diverse set that
/// fits it, crossfades counted, spread over the beginning, middle and end of the video.
enum HighlightReelPlanner {
    /// `defaultLevel` is the highlight level when the options give none.
    static func ranges(for analysis: VideoAnalysis, options: HighlightReelOptions,
                       defaultLevel: Float = HighlightEditing.defaultLevel) -> [TimeRange] {
        var editing = HighlightEditing()
        editing.minimumLevel = options.minimumLevel ?? defaultLevel
        editing.fillsBelowLevel = options.minimumLevel == nil
        // A video shorter than the shortest piece is one piece (a 1 s clip with a 4 s budget).
        editing.minimumPiece = min(options.minimumRangeDuration, analysis.duration)
        editing.snapDistance = options.snapDistance
        editing.budget = options.maximumDuration
        editing.crossfade = options.crossfadeDuration
        return HighlightEditor.pieces(analysis, editing: editing)
    }
}
