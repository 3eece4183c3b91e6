import ReelAnalysis
import ReelCompression
import ReelMedia
import ReelSupport

/// Turns an analysis into the source ranges of a highlight reel (see `HighlightReelOptions`).
///
/// Without a budget: the highlights (at or above `minimumLevel` when given). With one: the most
/// engaging segments first until the budget is filled. Then each edge moves onto a shot boundary
/// within `snapDistance`, short ranges are widened to `minimumRangeDuration` around their middle,
/// touching ranges merge, everything goes back into time order, and the total is trimmed to the
/// budget from the least engaging range.
enum HighlightReelPlanner {
    static func ranges(for analysis: VideoAnalysis, options: HighlightReelOptions) -> [TimeRange] {
        let segments = analysis.segments
        guard let first = segments.first, let last = segments.last else { return [] }
        let videoStart = first.timeRange.start, videoEnd = last.timeRange.end
        let scale: Int32 = 1_000_000
        func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, timescale: scale) }

        var picks: [TimeRange]
        if let budget = options.maximumDuration {
            let floor = options.minimumLevel ?? 0
            let ranked = segments.filter { $0.level >= floor }
                .sorted { $0.level != $1.level ? $0.level > $1.level : $0.timeRange.start < $1.timeRange.start }
            picks = []
            var total = 0.0
            for segment in ranked where total < budget {
                var range = segment.timeRange
                let remaining = budget - total
                if range.duration.seconds > remaining {
                    guard remaining >= options.minimumRangeDuration else { continue }
                    let middle = (range.start.seconds + range.end.seconds) / 2
                    range = TimeRange(start: time(middle - remaining / 2), end: time(middle + remaining / 2))
                }
                picks.append(range)
                total += range.duration.seconds
            }
        } else {
            picks = HighlightSelector.highlights(segments, minimumLevel: options.minimumLevel)
        }

        let edges = [videoStart] + analysis.boundaries.map(\.time) + [videoEnd]
        func snapped(_ value: MediaTime) -> MediaTime {
            let nearest = edges.min { abs(($0 - value).seconds) < abs(($1 - value).seconds) }
            guard let nearest, abs((nearest - value).seconds) <= options.snapDistance else { return value }
            return nearest
        }
        picks = picks.map { range in
            var result = TimeRange(start: snapped(range.start), end: snapped(range.end))
            if result.isEmpty { result = range }
            let length = result.duration.seconds
            if length < options.minimumRangeDuration {
                let middle = (result.start.seconds + result.end.seconds) / 2
                var start = max(videoStart.seconds, middle - options.minimumRangeDuration / 2)
                let end = min(videoEnd.seconds, start + options.minimumRangeDuration)
                start = max(videoStart.seconds, end - options.minimumRangeDuration)
                result = TimeRange(start: time(start), end: time(end))
            }
            return result
        }
        var merged: [TimeRange] = []
        for range in picks.sorted(by: { $0.start < $1.start }) {
            if let previous = merged.last, range.start <= previous.end {
                merged[merged.count - 1].end = max(previous.end, range.end)
            } else {
                merged.append(range)
            }
        }
        guard let budget = options.maximumDuration else { return merged }
        return trimmed(merged, to: budget, analysis: analysis, minimum: options.minimumRangeDuration)
    }

    /// Shortens the least engaging ranges (from their end) until the total fits the budget.
    private static func trimmed(_ ranges: [TimeRange], to budget: Double, analysis: VideoAnalysis,
                                minimum: Double) -> [TimeRange] {
        var result = ranges
        func total() -> Double { result.map(\.duration.seconds).reduce(0, +) }
        func level(_ range: TimeRange) -> Float { analysis.peakLevel(in: range) }
        while total() > budget + 1e-6, !result.isEmpty {
            let excess = total() - budget
            guard let index = result.indices.min(by: { level(result[$0]) < level(result[$1]) }) else { break }
            let length = result[index].duration.seconds
            if length - excess >= min(minimum, length) && length - excess > 0 {
                result[index].end = result[index].end - MediaTime(seconds: excess, timescale: 1_000_000)
            } else {
                result.remove(at: index)
            }
        }
        return result
    }
}
