import Foundation
import ReelSupport

/// How highlights are cut from the levels, as an editor would.
public struct HighlightEditing: Sendable, Equatable {
    /// Segments at or above this level are highlight material.
    public var minimumLevel: Float = HighlightEditing.defaultLevel
    /// No piece is shorter than this, in seconds, unless the whole video is.
    public var minimumPiece = 2.0
    /// Picks closer together than this, in seconds, become one piece.
    public var mergeGap = 1.5
    /// Two pieces show the same content when at least half of one's sampled frames have a twin
    /// in the other (or within 2 s of it) closer than this (mean absolute difference of their appearance signatures,
    /// 0...1): only the stronger is kept.
    public var repeatDistance = 0.008
    /// The longest the reel may last, in seconds, counting `crossfade`s; `nil` keeps every
    /// highlight.
    public var budget: Double?
    /// Seconds each join's crossfade takes out of the output.
    public var crossfade = 0.0
    /// Piece edges within this many seconds of a shot boundary move onto it.
    public var snapDistance = 0.5
    /// With a budget that the material at `minimumLevel` cannot fill, whether the next strongest
    /// segments below it fill the rest.
    public var fillsBelowLevel = true
    /// Whether a reel of a long video (a minute or more of content, three times the budget)
    /// keeps its story's ending and leaves out closing credits (see `StoryArc`); the analysis's
    /// own highlights do not.
    public var spansTheStory = true

    /// Level 6: with real variation, about the top third of the video's spread of engagement.
    public static let defaultLevel: Float = 6

    /// The defaults.
    public init() {}
}

/// Chooses highlight pieces from an analysis: runs of engaging segments, merged across short
/// gaps, each at least `minimumPiece` long, repeated content kept once; with a budget, the
/// strongest diverse set, spread over the beginning, middle and end when each has material.
package enum HighlightEditor {
    /// One candidate piece.
    struct Piece {
        var range: TimeRange
        var strength: Double
        var peak: TimeRange
        var signature: [UInt8]
        /// The run's segments in the upper half between the level it was cut at and its peak,
        /// first to last (at least `minimumPiece`, inside `range`); nil for none.
        var core: TimeRange? = nil
        /// The highest level in the run and the highest outside its core (nil: all core).
        var peakLevel: Float = 0
        var tailLevel: Float? = nil
    }

    package static func pieces(_ analysis: VideoAnalysis, editing: HighlightEditing) -> [TimeRange] {
        let segments = analysis.segments
        guard let first = segments.first, let last = segments.last else { return [] }
        let bounds = TimeRange(start: first.timeRange.start, end: last.timeRange.end)
        let looks = RepeatFinder(samples: analysis.samples, distance: editing.repeatDistance)
        let quality = PictureQuality(segments)
        var candidates = distinct(runs(segments, at: editing.minimumLevel, editing: editing, bounds: bounds, quality: quality), looks: looks)
        let cuts = analysis.boundaries.map(\.time)
        let still = StillEnds(samples: analysis.samples, sound: analysis.sound, boundaries: analysis.boundaries.map(\.time.seconds))
        let stillSpans = still.stillSpans()
        // Pieces without their still, silent ends, and without such stretches inside them.
        func quieted(_ ranges: [TimeRange]) -> [TimeRange] {
            ranges.map { still.trimmed($0, minimumPiece: editing.minimumPiece) }.flatMap {
                still.withoutInnerStills($0, spans: stillSpans, minimumPiece: editing.minimumPiece)
            }
        }
        let edits = EditPoints(boundaries: cuts.map(\.seconds), sound: analysis.sound,
                               bounds: bounds.start.seconds...bounds.end.seconds,
                               stillSpans: analysis.sound?.hasSound == true ? [] : stillSpans,
                               snapDistance: editing.snapDistance, minimumPiece: editing.minimumPiece)
        let arc = editing.spansTheStory ? StoryArc(segments: segments, bounds: bounds, mergeGap: editing.mergeGap,
                                                          highlightLevel: editing.minimumLevel) : nil
        guard let budget = editing.budget else {
            var pieces = merged(candidates.map { snapped($0.range, to: cuts, within: editing.snapDistance) }, gap: editing.mergeGap)
            if let arc, arc.applies(toReelOf: total(pieces)) {
                pieces = withEnding(pieces, arc: arc, editing: editing, bounds: bounds, quality: quality, cuts: cuts)
            }
            return merged(quieted(edits.refined(pieces, budget: nil)), gap: 0.05)
        }
        let story = arc.flatMap { $0.applies(toReelOf: budget) ? $0 : nil }
        if let story { candidates.removeAll { story.isCredits($0.range) } }
        // Not enough material above the level: the next strongest segments fill the budget.
        if editing.minimumLevel > 0, editing.fillsBelowLevel {
            // Each lower segment on its own (joined into runs they would make one long piece).
            // They rank below the highlights; repeats among them are caught as they are chosen.
            // Level 0 (a fade from black, silence, the video's dullest stretch) fills nothing:
            // the budget is a limit, and a shorter reel beats one padded with it.
            let lower = segments.filter { $0.level > 0 && $0.level < editing.minimumLevel }.flatMap { segment in
                runs([segment], at: 0, editing: editing, bounds: bounds, quality: quality)
            }
            candidates += lower
        }
        let ending = story?.endingPiece(editing: editing, bounds: bounds, quality: quality)
        let usable = watchable(segments)
        func planned(allowing allowance: Double) -> [TimeRange] {
            let pieces = fill(budget: allowance, from: candidates, ending: ending, editing: editing, bounds: bounds,
                              watchable: usable, cuts: cuts, looks: looks)
            // Still, silent ends and stretches go first: the budget they held lets the edges
            // reach outward, so an action cut off at a segment's edge can be seen whole. Again
            // after, for what the edges reached into.
            let refined = edits.refined(quieted(pieces), budget: allowance, joinOverlap: editing.crossfade)
            return merged(quieted(refined), gap: 0.05)
        }
        return refilled(budget: budget, crossfade: editing.crossfade, shortest: editing.minimumPiece, plan: planned(allowing:))
    }

    /// The longest of `plan`'s reels within `budget`: dead air cut out of the pieces leaves part
    /// of the budget unused, so the plan is made again allowing that much more (halving the
    /// extra while the result runs over), for as long as it gains a piece's worth.
    static func refilled(budget: Double, crossfade: Double, shortest: Double, plan: (Double) -> [TimeRange]) -> [TimeRange] {
        func length(_ ranges: [TimeRange]) -> Double { total(ranges) - Double(max(ranges.count - 1, 0)) * crossfade }
        var best = plan(budget)
        var allowance = budget
        for _ in 0..<4 {
            var extra = budget - length(best)
            guard extra >= shortest else { break }
            var found: [TimeRange]?
            while extra >= shortest / 2, found == nil {
                let again = plan(allowance + extra)
                if length(again) <= budget + 1e-3 { found = again } else { extra /= 2 }
            }
            guard let found, length(found) > length(best) + shortest / 2 else { break }
            best = found
            allowance += extra
        }
        return best
    }

    /// Runs of touching segments at or above `level`, joined across gaps under `mergeGap`.
    /// A run's strength is its level (mean and peak) times its pictures' quality: a blurred or
    /// badly exposed stretch ranks below clear shots of the same video.
    static func runs(_ segments: [EngagementSegment], at level: Float, editing: HighlightEditing, bounds: TimeRange,
                     quality: PictureQuality = PictureQuality([])) -> [Piece] {
        var pieces: [Piece] = []
        var members: [[EngagementSegment]] = []
        for segment in segments where segment.level >= level {
            if let lastRun = members.last, let end = lastRun.last?.timeRange.end,
               (segment.timeRange.start - end).seconds < editing.mergeGap {
                members[members.count - 1].append(segment)
            } else {
                members.append([segment])
            }
        }
        for run in members {
            guard let start = run.first?.timeRange.start, let end = run.last?.timeRange.end,
                  let peak = run.max(by: { $0.level < $1.level }) else { continue }
            let seconds = run.map(\.timeRange.duration.seconds)
            let weighted = zip(run, seconds).map { Double($0.level) * $1 }.reduce(0, +) / max(seconds.reduce(0, +), 1e-6)
            let range = widened(TimeRange(start: start, end: end), to: editing.minimumPiece, within: bounds)
            let clarity = zip(run, seconds).map { quality.factor(of: $0.features) * $1 }.reduce(0, +) / max(seconds.reduce(0, +), 1e-6)
            let strong = run.filter { $0.level >= (level + peak.level) / 2 }
            let core = strong.first.flatMap { first in strong.last.map { TimeRange(start: first.timeRange.start, end: $0.timeRange.end) } }
            let tail = run.filter { segment in core.map { !$0.contains(segment.timeRange.start) } ?? true }.map(\.level).max()
            pieces.append(Piece(range: range, strength: (0.5 * weighted + 0.5 * Double(peak.level)) * clarity, peak: peak.timeRange,
                                signature: meanSignature(run), core: core.map { widened($0, to: editing.minimumPiece, within: range) },
                                peakLevel: peak.level, tailLevel: tail))
        }
        return pieces
    }

    /// Drops pieces that repeat a stronger one.
    static func distinct(_ pieces: [Piece], looks: RepeatFinder) -> [Piece] {
        var kept: [Piece] = []
        for piece in pieces.sorted(by: { $0.strength > $1.strength }) {
            let repeated = kept.contains { other in
                // The mean looks must be close before the frames are compared one by one.
                !piece.signature.isEmpty && !other.signature.isEmpty
                    && PictureMeasurer.difference(piece.signature, other.signature) < 0.06
                    && looks.repeats(piece.range, other.range)
            }
            if !repeated { kept.append(piece) }
        }
        return kept.sorted { $0.range.start < $1.range.start }
    }

    /// The strongest pieces that fit the budget, in time order: first the best of each third of
    /// the video that has a piece nearly as strong as the best overall, and the story's
    /// `ending`; then greedily the strongest, each discounted for every chosen piece nearby;
    /// each piece at most a quarter of the budget (cut around its peak). Pieces grow into the
    /// `watchable` footage around them only (all of `bounds` when nil).
    static func fill(budget: Double, from candidates: [Piece], ending: Piece? = nil, editing: HighlightEditing, bounds: TimeRange,
                     watchable: [TimeRange]? = nil, cuts: [MediaTime], looks: RepeatFinder) -> [TimeRange] {
        guard let best = candidates.map(\.strength).max() else { return [] }
        let length = bounds.duration.seconds
        var order: [Piece] = []
        for third in 0..<3 {
            let from = bounds.start.seconds + length * Double(third) / 3, to = from + length / 3
            let inside = candidates.filter { $0.peak.start.seconds >= from && $0.peak.start.seconds < to }
            // The video's arc: each third with a moment nearly as strong as the best, or with
            // highlight material of its own (an ending's payoff), has its best in the reel.
            if let top = inside.max(by: { $0.strength < $1.strength }),
               top.strength >= 0.8 * best || top.strength >= Double(editing.minimumLevel) {
                order.append(top)
            }
        }
        order.sort { $0.strength > $1.strength }
        // The ending comes right after the strongest moment: a reel too short for every third
        // still closes on the story's close rather than on its climax.
        if let ending { order.insert(ending, at: min(1, order.count)) }
        var rest = candidates.filter { piece in !order.contains { $0.range == piece.range } }
        let longest = max(budget / 4, editing.minimumPiece + 1)
        // Nearby moments are worth less once one is in: 40% less within a twentieth of the video.
        let neighbourhood = max(length / 20, 10)
        var chosen: [TimeRange] = []
        var sources: [TimeRange] = []
        var chosenPieces: [Piece] = []
        var leftOut: [Piece] = []
        while true {
            let piece: Piece
            if !order.isEmpty {
                piece = order.removeFirst()
            } else {
                func worth(_ candidate: Piece) -> Double {
                    let near = chosen.filter { abs(($0.start - candidate.range.start).seconds) < neighbourhood }.count
                    return candidate.strength * pow(0.6, Double(near))
                }
                guard let next = rest.indices.max(by: { worth(rest[$0]) < worth(rest[$1]) }) else { break }
                piece = rest.remove(at: next)
            }
            let joins = Double(chosen.count) * editing.crossfade
            let room = budget + joins - total(chosen)
            guard room >= min(editing.minimumPiece, budget) else {
                leftOut += [piece] + order + rest
                break
            }
            var range = snapped(piece.range, to: cuts, within: editing.snapDistance)
            let wanted = min(range.duration.seconds, longest, room)
            if wanted < range.duration.seconds {
                range = around(piece.peak, length: wanted, within: range)
            }
            guard range.duration.seconds >= min(editing.minimumPiece, budget) - 1e-6 else {
                leftOut.append(piece)
                continue
            }
            guard !chosen.contains(where: { $0.start < range.end && range.start < $0.end }),
                  !chosen.contains(where: { looks.repeats($0, range) }) else { continue }
            chosen.append(range)
            sources.append(piece.range)
            chosenPieces.append(piece)
        }
        swapInStronger(leftOut, chosen: &chosen, pieces: &chosenPieces, sources: &sources, budget: budget, longest: longest,
                       editing: editing, cuts: cuts, looks: looks)
        // Room left that no further piece fits: lengthen the chosen ones, within their own
        // material first, then into the footage around them.
        // The footage around a piece ends where level 0 begins (a fade, silence): no padding.
        let around = chosen.map { piece in (watchable ?? [bounds]).first { $0.start <= piece.start && piece.end <= $0.end } ?? piece }
        for limits in [sources, around] {
            for index in chosen.indices {
                let room = budget + Double(chosen.count - 1) * editing.crossfade - total(chosen)
                guard room > 0.05 else { break }
                chosen[index] = lengthened(chosen[index], by: room, within: limits[index], avoiding: chosen)
            }
        }
        let result = merged(chosen, gap: editing.mergeGap)
        // Merging across gaps adds their seconds: trim the last piece if that overshoots.
        return trimmed(result, budget: budget, crossfade: editing.crossfade)
    }

    /// The stretches of touching segments above level 0.
    static func watchable(_ segments: [EngagementSegment]) -> [TimeRange] {
        merged(segments.filter { $0.level > 0 }.map(\.timeRange), gap: 0.01)
    }

    /// `range` grown by up to `seconds`, alternately at each end, inside `limits` and without
    /// touching the other ranges of `others`.
    static func lengthened(_ range: TimeRange, by seconds: Double, within limits: TimeRange, avoiding others: [TimeRange]) -> TimeRange {
        var low = limits.start, high = limits.end
        for other in others where other != range {
            if other.end <= range.start { low = max(low, other.end) }
            if other.start >= range.end { high = min(high, other.start) }
        }
        let before = max((range.start - low).seconds, 0), after = max((high - range.end).seconds, 0)
        let takeAfter = min(after, max(seconds / 2, seconds - before))
        let takeBefore = min(before, seconds - takeAfter)
        return TimeRange(start: range.start - time(takeBefore), end: range.end + time(takeAfter))
    }

    private static func trimmed(_ ranges: [TimeRange], budget: Double, crossfade: Double) -> [TimeRange] {
        var result = ranges
        while let lastRange = result.last {
            let excess = total(result) - Double(result.count - 1) * crossfade - budget
            guard excess > 1e-6 else { break }
            let length = lastRange.duration.seconds
            if length - excess >= 1 {
                result[result.count - 1].end = lastRange.end - MediaTime(seconds: excess, timescale: 1_000_000)
            } else {
                result.removeLast()
            }
        }
        return result
    }

    /// A `length`-second range around the middle of `peak`, kept inside `outer`.
    static func around(_ peak: TimeRange, length: Double, within outer: TimeRange) -> TimeRange {
        let middle = (peak.start.seconds + peak.end.seconds) / 2
        var start = max(outer.start.seconds, middle - length / 2)
        let end = min(outer.end.seconds, start + length)
        start = max(outer.start.seconds, end - length)
        return TimeRange(start: time(start), end: time(end))
    }

    /// `range` grown around its middle to `length` seconds, inside `bounds`.
    static func widened(_ range: TimeRange, to length: Double, within bounds: TimeRange) -> TimeRange {
        guard range.duration.seconds < length else { return range }
        return around(range, length: min(length, bounds.duration.seconds), within: bounds)
    }

    /// Edges within `distance` of a shot boundary moved onto it (unless that empties the range).
    static func snapped(_ range: TimeRange, to cuts: [MediaTime], within distance: Double) -> TimeRange {
        func snap(_ value: MediaTime) -> MediaTime {
            guard let nearest = cuts.min(by: { abs(($0 - value).seconds) < abs(($1 - value).seconds) }),
                  abs((nearest - value).seconds) <= distance else { return value }
            return nearest
        }
        let result = TimeRange(start: snap(range.start), end: snap(range.end))
        return result.duration.seconds >= 1 ? result : range
    }

    /// Ranges in time order with overlapping ones, or ones closer than `gap`, joined.
    static func merged(_ ranges: [TimeRange], gap: Double) -> [TimeRange] {
        var result: [TimeRange] = []
        for range in ranges.sorted(by: { $0.start < $1.start }) {
            if let previous = result.last, (range.start - previous.end).seconds < gap {
                result[result.count - 1].end = max(previous.end, range.end)
            } else {
                result.append(range)
            }
        }
        return result
    }

    static func total(_ ranges: [TimeRange]) -> Double { ranges.map(\.duration.seconds).reduce(0, +) }

    private static func meanSignature(_ run: [EngagementSegment]) -> [UInt8] {
        let signatures = run.map(\.signature).filter { !$0.isEmpty }
        guard let size = signatures.first?.count, signatures.allSatisfy({ $0.count == size }) else {
            return signatures.first ?? []
        }
        return (0..<size).map { index in
            UInt8(clamping: signatures.map { Int($0[index]) }.reduce(0, +) / signatures.count)
        }
    }

    private static func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, timescale: 1_000_000) }
}

/// Tells whether two ranges show the same content, from the analysis's sample signatures.
struct RepeatFinder {
    let samples: [SampleSignature]
    let distance: Double

    /// Whether at least half of the samples of either range have a near-identical sample in
    /// the other or within `reach` seconds of it (the same moment, cut a little differently).
    func repeats(_ first: TimeRange, _ second: TimeRange, reach: Double = 2) -> Bool {
        func twinned(_ range: TimeRange, in other: TimeRange) -> Bool {
            let own = inside(range)
            let around = inside(TimeRange(start: other.start - MediaTime(seconds: reach, timescale: 1000),
                                          end: other.end + MediaTime(seconds: reach, timescale: 1000)))
            guard !own.isEmpty else { return false }
            var twins = 0
            for sample in own where around.contains(where: { PictureMeasurer.difference($0.signature, sample.signature) < distance }) {
                twins += 1
            }
            return Double(twins) >= 0.5 * Double(own.count)
        }
        return twinned(first, in: second) || twinned(second, in: first)
    }

    /// The samples in `range`. They are in time order, so the range is
    /// found by two binary searches rather than a pass over the whole video per check (a budget
    /// reel checks every candidate against every chosen piece).
    private func inside(_ range: TimeRange) -> ArraySlice<SampleSignature> {
        func firstIndex(notBefore time: MediaTime) -> Int {
            var low = 0, high = samples.count
            while low < high {
                let middle = (low + high) / 2
                if samples[middle].time < time { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let from = firstIndex(notBefore: range.start), to = max(firstIndex(notBefore: range.end), from)
        return samples[from..<to]
    }
}
