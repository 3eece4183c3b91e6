import Foundation
import ReelSupport

/// Where a video's story lies, for a reel that spans it: the content before any closing
/// credits, and the ending, the last stretch of above-typical engagement at its close. A film's
/// climax is usually its strongest moment, but a reel that stops there leaves out the payoff
/// after it (Big Buck Bunny's flying squirrel as a kite, at a fraction of the climax's level).
struct StoryArc {
    /// The video without its closing credits (the whole video when it has none).
    let content: TimeRange
    /// The closing credits, when the video has them.
    let credits: TimeRange?
    /// The segments of the ending's run, first to last; empty when the close is not engaging.
    let ending: [EngagementSegment]
    /// The ending run's strongest segment inside the closing share (its last segment when none
    /// starts there): where a piece of the ending is centred.
    let endingPeak: TimeRange?

    /// Credits: text over most of a stretch at least this long, in seconds.
    static let shortestCredits = 15.0
    /// The ending is found in this last share of the content.
    static let endingShare = 0.1

    init(segments: [EngagementSegment], bounds: TimeRange, mergeGap: Double, highlightLevel: Float) {
        let levels = segments.map { Double($0.level) }, seconds = segments.map(\.timeRange.duration.seconds)
        let typical = LevelCalibration.percentile(levels, durations: seconds, 0.5)
        let credits = Self.closingCredits(segments, bounds: bounds, typical: typical)
        self.credits = credits
        content = TimeRange(start: bounds.start, end: credits?.start ?? bounds.end)
        let zoneStart = content.end.seconds - Self.endingShare * content.duration.seconds
        // Runs of above-typical segments inside the content; the ending is the last one reaching
        // into the closing share, when it is a close of its own: begun inside that share, or
        // without highlight material (a run that carries the last highlight into the close is
        // that highlight's, and the highlights are chosen on their own). Blank and silent fades
        // never count (their level is 0).
        var runs: [[EngagementSegment]] = []
        for segment in segments where segment.timeRange.end <= content.end && segment.level > 0 && Double(segment.level) >= typical {
            if let end = runs.last?.last?.timeRange.end, (segment.timeRange.start - end).seconds < mergeGap {
                runs[runs.count - 1].append(segment)
            } else {
                runs.append([segment])
            }
        }
        ending = runs.last.flatMap { run in
            guard let first = run.first, let last = run.last, last.timeRange.end.seconds > zoneStart else { return nil }
            let ownClose = first.timeRange.start.seconds >= zoneStart || run.allSatisfy { $0.level < highlightLevel }
            return ownClose ? run : nil
        } ?? []
        let closing = ending.filter { $0.timeRange.start.seconds >= zoneStart }
        endingPeak = (closing.max { $0.level < $1.level } ?? ending.last)?.timeRange
    }

    /// The closing credits: the last stretch of mostly text (gaps under 8 s without text
    /// joined) that lasts `shortestCredits`, begins after 60% of the video, ends within 10% of
    /// its length (at least 30 s) of the end, and is less engaging than the video's typical
    /// segment (credits rate low; a talk's slides, spoken over, need not).
    private static func closingCredits(_ segments: [EngagementSegment], bounds: TimeRange, typical: Double) -> TimeRange? {
        let length = bounds.duration.seconds
        var stretches: [[EngagementSegment]] = []
        for segment in segments where segment.features.textShare >= 0.5 {
            if let end = stretches.last?.last?.timeRange.end, (segment.timeRange.start - end).seconds < 8 {
                stretches[stretches.count - 1].append(segment)
            } else {
                stretches.append([segment])
            }
        }
        guard let last = stretches.last, let first = last.first, let end = last.last?.timeRange.end else { return nil }
        let span = (end - first.timeRange.start).seconds
        let inside = segments.filter { $0.timeRange.start >= first.timeRange.start && $0.timeRange.end <= end }
        let mean = inside.map { Double($0.level) * $0.timeRange.duration.seconds }.reduce(0, +) / max(span, 1e-6)
        guard span >= shortestCredits,
              (first.timeRange.start - bounds.start).seconds >= 0.6 * length,
              (bounds.end - end).seconds <= max(0.1 * length, 30),
              mean < typical else { return nil }
        return TimeRange(start: first.timeRange.start, end: end)
    }

    /// Whether a reel of `seconds` out of this video should span its story: a minute or more of
    /// content, at least three times the reel.
    func applies(toReelOf seconds: Double) -> Bool {
        content.duration.seconds >= 60 && 3 * seconds <= content.duration.seconds
    }

    /// The ending as a candidate piece, centred on its peak, or nil when the close is not engaging.
    func endingPiece(editing: HighlightEditing, bounds: TimeRange, quality: PictureQuality) -> HighlightEditor.Piece? {
        guard var piece = HighlightEditor.runs(ending, at: 0, editing: editing, bounds: bounds, quality: quality).last,
              let endingPeak else { return nil }
        piece.peak = endingPeak
        return piece
    }

    /// Whether most of `range` is closing credits.
    func isCredits(_ range: TimeRange) -> Bool {
        guard let credits else { return false }
        let overlap = min(range.end, credits.end) - max(range.start, credits.start)
        return overlap.seconds > 0.5 * range.duration.seconds
    }
}

extension HighlightEditor {
    /// `pieces` with the story's ending added when none of them reaches it: the ending's run
    /// around its peak, no longer than the pieces' median (and at least `minimumPiece`).
    static func withEnding(_ pieces: [TimeRange], arc: StoryArc, editing: HighlightEditing, bounds: TimeRange,
                           quality: PictureQuality, cuts: [MediaTime]) -> [TimeRange] {
        guard let ending = arc.endingPiece(editing: editing, bounds: bounds, quality: quality),
              !pieces.contains(where: { $0.start < ending.range.end && ending.range.start < $0.end }) else { return pieces }
        var range = snapped(ending.range, to: cuts, within: editing.snapDistance)
        let lengths = pieces.map(\.duration.seconds).sorted()
        let typical = max(editing.minimumPiece, lengths.isEmpty ? 0 : lengths[lengths.count / 2])
        if range.duration.seconds > typical { range = around(ending.peak, length: typical, within: range) }
        return (pieces + [range]).sorted { $0.start < $1.start }
    }
}
