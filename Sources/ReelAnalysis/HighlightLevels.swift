import ReelSupport

/// The levels a `HighlightAnalysisRequest` hands out: the analysis's segments cut at every
/// highlight's edges, each highlight one entry of its own, so that, as on MediaIntelligence,
/// `levels.first { $0.timeRange == highlight }` finds every highlight's level and
/// `levels.filter { !highlights.contains($0.timeRange) }` lists the rest.
///
/// Only the request's output is split. The stored analysis keeps the segments it measured
/// (shots, long ones cut into chunks), which the key frame, `EditPoints`, reels and saved
/// analyses work from: a highlight's edges are the editor's choice, not a measurement.
package enum HighlightLevels {
    /// `segments` (contiguous, in time order) as levels, with each of `highlights` (in time
    /// order, not overlapping) one entry whose level is the highest of the segments it
    /// overlaps: the level that made it a highlight (as `reel analyze --format csv` and the
    /// report show it). The rest keep their segment's level; a segment a highlight edge falls
    /// inside becomes two entries (or three) with the same level. The entries stay contiguous
    /// and cover what the segments cover.
    ///
    /// Returns the highlights too, each kept inside the segments' span (a highlight is made
    /// from the segments, so this only guards the entries' coverage); ones left empty are dropped.
    package static func split(
        _ segments: [EngagementSegment], at highlights: [TimeRange]
    ) -> (highlights: [TimeRange], levels: [(timeRange: TimeRange, level: Float)]) {
        guard let first = segments.first, let last = segments.last else { return (highlights, []) }
        let bounds = TimeRange(start: first.timeRange.start, end: last.timeRange.end)
        var kept: [TimeRange] = []
        var levels: [(timeRange: TimeRange, level: Float)] = []
        var cursor = bounds.start
        for highlight in highlights.sorted(by: { $0.start < $1.start }) {
            let inside = TimeRange(start: highlight.start >= cursor ? highlight.start : cursor,
                                   end: highlight.end <= bounds.end ? highlight.end : bounds.end)
            guard !inside.isEmpty else { continue }
            levels += pieces(of: segments, in: TimeRange(start: cursor, end: inside.start))
            let overlapping = segments.filter { $0.timeRange.start < inside.end && inside.start < $0.timeRange.end }
            levels.append((inside, overlapping.map(\.level).max() ?? 0))
            kept.append(inside)
            cursor = inside.end
        }
        levels += pieces(of: segments, in: TimeRange(start: cursor, end: bounds.end))
        return (kept, levels)
    }

    /// The parts of `segments` inside `range`, each with its segment's level.
    private static func pieces(of segments: [EngagementSegment], in range: TimeRange) -> [(timeRange: TimeRange, level: Float)] {
        guard !range.isEmpty else { return [] }
        return segments.compactMap { segment in
            let part = TimeRange(start: max(segment.timeRange.start, range.start), end: min(segment.timeRange.end, range.end))
            return part.isEmpty ? nil : (part, segment.level)
        }
    }
}
