import Foundation
import ReelMedia
import ReelSupport

/// Finds dead air in a source's measured sound (and picture): pure computation, no decoding.
///
/// Sound is what peaks at or above the silence level, its dips shorter than `bridgedDip`
/// bridged (the closure before a word's final "t") and then its bursts shorter than
/// `minimumSound` dropped (clicks), as auto-editor fills cuts under `mincut` and drops clips
/// under `minclip` (in the other order: it loses such word tails). With `requiresStillPicture` a visible change of the picture
/// counts as activity too. Every stretch of activity is widened by the margins, the kept pieces
/// are the widened stretches inside each searched range, and gaps shorter than `minimumPause`
/// (at a range's edges too) are kept rather than cut.
struct DeadAirFinder {
    /// A picture whose share of visibly changed pixels stays at or below this stands still:
    /// coding noise does not move it, and a blinking text caret is no change at all (each
    /// sample is measured against the most alike of the last two seconds, `StillnessSink`).
    static let stillChange = 0.0002
    /// Dips in the sound shorter than this, in seconds, are part of it: auto-editor's `mincut`
    /// (6 frames at 30 fps).
    static let bridgedDip = 0.2

    let options: DeadAirOptions

    /// A stretch of time in seconds.
    struct Span: Equatable {
        var start: Double
        var end: Double
        var length: Double { end - start }
    }

    /// The report for a source of `duration` seconds whose sound measured `sound` (`nil`
    /// without sound) and picture `picture` (needed only with `requiresStillPicture`).
    func report(sound: SoundPeaks?, picture: PictureChanges?, duration: Double) -> DeadAirReport {
        var activity: [Span] = []
        var levelDecibels: Double?
        if let sound, !sound.peaks.isEmpty {
            let amplitude = options.silenceLevel.amplitude(loudest: sound.peaks.max() ?? 0)
            levelDecibels = 20 * log10(Double(max(amplitude, 1e-6)))
            activity += soundSpans(sound, amplitude: amplitude)
        }
        if options.requiresStillPicture, let picture { activity += motionSpans(picture) }
        let padded = Self.merged(activity.map { Span(start: $0.start - options.marginBefore, end: $0.end + options.marginAfter) })
        let end = duration > 0 ? duration : (activity.map(\.end).max() ?? 0)
        let searched = searchedSpans(end: end)
        var kept: [Span] = [], cuts: [Span] = []
        for range in searched {
            let pieces = keptPieces(padded, in: range)
            kept += pieces
            var cursor = range.start
            for piece in pieces {
                if piece.start > cursor { cuts.append(Span(start: cursor, end: piece.start)) }
                cursor = piece.end
            }
            if range.end > cursor { cuts.append(Span(start: cursor, end: range.end)) }
        }
        return DeadAirReport(options: options, searched: searched.map(Self.timeRange), kept: kept.map(Self.timeRange),
                             cuts: cuts.map(Self.timeRange), silenceLevelDecibels: levelDecibels)
    }

    /// The stretches whose windows peak at or above `amplitude`: dips shorter than `bridgedDip`
    /// bridged, then bursts shorter than `minimumSound` dropped.
    func soundSpans(_ sound: SoundPeaks, amplitude: Float) -> [Span] {
        var runs: [Span] = []
        var runStart: Int?
        for (index, peak) in sound.peaks.enumerated() {
            let loud = peak > 0 && peak >= amplitude
            if loud, runStart == nil { runStart = index }
            if !loud, let start = runStart {
                runs.append(Span(start: sound.time(ofWindow: start), end: sound.time(ofWindow: index)))
                runStart = nil
            }
        }
        if let start = runStart {
            runs.append(Span(start: sound.time(ofWindow: start), end: sound.time(ofWindow: sound.peaks.count)))
        }
        let tolerance = 1e-9
        var bridged: [Span] = []
        for run in runs {
            if let last = bridged.last, run.start - last.end < Self.bridgedDip - tolerance {
                bridged[bridged.count - 1].end = run.end
            } else {
                bridged.append(run)
            }
        }
        return bridged.filter { $0.length >= options.minimumSound - tolerance }
    }

    /// The stretches between picture samples where the picture changed visibly.
    func motionSpans(_ picture: PictureChanges) -> [Span] {
        guard picture.times.count > 1 else { return [] }
        return (1..<picture.times.count).compactMap { index in
            picture.changes[index] > Self.stillChange ? Span(start: picture.times[index - 1], end: picture.times[index]) : nil
        }
    }

    /// The ranges to look in, clamped to `0...end`, in order; the whole source when none is given.
    func searchedSpans(end: Double) -> [Span] {
        guard !options.within.isEmpty else { return end > 0 ? [Span(start: 0, end: end)] : [] }
        return options.within.compactMap { range in
            let span = Span(start: max(range.start.seconds, 0), end: end > 0 ? min(range.end.seconds, end) : range.end.seconds)
            return span.length > 0 ? span : nil
        }
    }

    /// The parts of `range` to keep: the widened activity inside it, with gaps shorter than the
    /// shortest pause (at the range's edges too) kept, and pieces shorter than the shortest sound
    /// (cut off by the range's edge) left out.
    func keptPieces(_ activity: [Span], in range: Span) -> [Span] {
        var pieces: [Span] = []
        for span in activity {
            let clipped = Span(start: max(span.start, range.start), end: min(span.end, range.end))
            guard clipped.length > 0 else { continue }
            if let last = pieces.last, clipped.start - last.end < options.minimumPause {
                pieces[pieces.count - 1].end = max(last.end, clipped.end)
            } else {
                pieces.append(clipped)
            }
        }
        if let first = pieces.first, first.start - range.start < options.minimumPause { pieces[0].start = range.start }
        if let last = pieces.last, range.end - last.end < options.minimumPause { pieces[pieces.count - 1].end = range.end }
        return pieces.filter { $0.length >= options.minimumSound }
    }

    /// `spans` sorted, overlapping and touching ones joined.
    static func merged(_ spans: [Span]) -> [Span] {
        var result: [Span] = []
        for span in spans.sorted(by: { $0.start < $1.start }) {
            if let last = result.last, span.start <= last.end {
                result[result.count - 1].end = max(last.end, span.end)
            } else {
                result.append(span)
            }
        }
        return result
    }

    private static func timeRange(_ span: Span) -> TimeRange {
        TimeRange(start: MediaTime(seconds: span.start, timescale: 1_000_000), end: MediaTime(seconds: span.end, timescale: 1_000_000))
    }
}
