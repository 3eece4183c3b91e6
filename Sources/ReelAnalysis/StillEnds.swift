import Foundation
import ReelSupport

/// Trims the ends of a highlight piece where the picture holds still and nothing is heard: the
/// empty room after someone walked out of a fixed camera's view, the empty road before a car
/// comes in. Such a piece is cut from one long shot in whole segments of a few seconds, so
/// without this it runs on for seconds after the action has left.
///
/// Still means no block of the samples' appearance signatures (16x9 luma and 8x5 chroma block
/// means) changes by more than `stillness` between consecutive samples: a moving camera or
/// anything moving in a block's worth of picture breaks it, sensor noise and coding flicker do
/// not.
struct StillEnds {
    let samples: [SampleSignature]
    let sound: SoundEnvelope?
    /// Shot boundaries (seconds): a change across one is a cut, not action, so a still shot
    /// chosen whole (a title card, a still picture) keeps its length.
    var boundaries: [Double] = []

    /// Largest change of a block mean (0-255) between consecutive samples that still counts
    /// as nothing happening.
    static let stillness = 12
    /// A still, silent end shorter than this is left alone.
    static let shortest = 1.0
    /// Of a trimmed end, this much stays after the action leaves (and before it comes in).
    static let margin = 0.5
    /// Below this level (dBFS) nothing counts as heard, whatever the video's own baseline.
    static let silence = -55.0

    /// `piece` without its still, silent ends, at least `minimumPiece` long (a piece that is all
    /// still is kept as chosen).
    func trimmed(_ piece: TimeRange, minimumPiece: Double) -> TimeRange {
        let start = piece.start.seconds, end = piece.end.seconds
        let inside = samples.filter { $0.time.seconds >= start && $0.time.seconds <= end }
        guard inside.count >= 3 else { return piece }
        // Times at which something changed since the sample before.
        var active: [Double] = []
        for (previous, current) in zip(inside, inside.dropFirst()) where !isStill(previous, current) && !crossesCut(previous, current) {
            active.append(current.time.seconds)
        }
        guard let firstActive = active.first, let lastActive = active.last else { return piece }
        var newStart = start, newEnd = end
        // The change at `firstActive` began after the sample before it.
        let leadIn = inside.last { $0.time.seconds < firstActive }?.time.seconds ?? start
        if leadIn - start >= Self.shortest, isSilent(start...leadIn) { newStart = max(start, leadIn - Self.margin) }
        if end - lastActive >= Self.shortest, isSilent(lastActive...end) { newEnd = min(end, lastActive + Self.margin) }
        // Never shorter than a piece may be: the still ends give back what is missing.
        if newEnd - newStart < minimumPiece { newEnd = min(end, newStart + minimumPiece) }
        if newEnd - newStart < minimumPiece { newStart = max(start, newEnd - minimumPiece) }
        guard newStart != start || newEnd != end else { return piece }
        return TimeRange(start: MediaTime(seconds: newStart, timescale: 1_000_000), end: MediaTime(seconds: newEnd, timescale: 1_000_000))
    }

    /// `piece` without the still, silent stretches inside it that last `innerStill` or more (the
    /// empty car park between two cars, bottles standing untouched between two hands): each is
    /// cut out but for `margin` on either side, where neither part would be left shorter than
    /// `minimumPiece`. `spans` are the video's `stillSpans()`.
    func withoutInnerStills(_ piece: TimeRange, spans: [ClosedRange<Double>], minimumPiece: Double) -> [TimeRange] {
        let end = piece.end.seconds
        var parts: [TimeRange] = []
        var from = piece.start.seconds
        for span in spans where span.upperBound - span.lowerBound >= Self.innerStill {
            let cutFrom = span.lowerBound + Self.margin, cutTo = span.upperBound - Self.margin
            guard cutFrom - from >= minimumPiece, end - cutTo >= minimumPiece, isSilent(span) else { continue }
            parts.append(TimeRange(start: MediaTime(seconds: from, timescale: 1_000_000),
                                   end: MediaTime(seconds: cutFrom, timescale: 1_000_000)))
            from = cutTo
        }
        guard !parts.isEmpty else { return [piece] }
        return parts + [TimeRange(start: MediaTime(seconds: from, timescale: 1_000_000), end: piece.end)]
    }

    /// A still, silent stretch inside a piece this long or longer is cut out (a second of it at
    /// least, `margin` kept on either side).
    static let innerStill = 2.0

    /// The stretches (first to last sample, seconds) where the picture holds still: at least
    /// three consecutive samples with no block changing more than `stillness`, within one shot.
    /// A silent video's pauses: where a cut leaves no movement broken off.
    func stillSpans() -> [ClosedRange<Double>] {
        var spans: [ClosedRange<Double>] = []
        var run: (start: Double, end: Double, pairs: Int)?
        func close() {
            if let current = run, current.pairs >= 2 { spans.append(current.start...current.end) }
            run = nil
        }
        for (previous, current) in zip(samples, samples.dropFirst()) {
            guard isStill(previous, current), !crossesCut(previous, current) else {
                close()
                continue
            }
            let before = previous.time.seconds, after = current.time.seconds
            if let current = run { run = (current.start, after, current.pairs + 1) } else { run = (before, after, 1) }
        }
        close()
        return spans
    }

    private func isStill(_ a: SampleSignature, _ b: SampleSignature) -> Bool {
        Self.unchangedShare(a.signature, b.signature) == 1
    }

    /// Whether a shot boundary lies between two samples: their difference is a cut, not action.
    private func crossesCut(_ a: SampleSignature, _ b: SampleSignature) -> Bool {
        let before = a.time.seconds, after = b.time.seconds
        return boundaries.contains { $0 > before && $0 <= after + 1e-3 }
    }

    /// The share of the blocks of two signatures that differ by at most `stillness` (0 when they
    /// cannot be compared), once `lumaShift` is taken off the change of each luma block.
    static func unchangedShare(_ a: [UInt8], _ b: [UInt8], lumaShift: Int = 0) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        let unchanged = a.indices.filter { index in
            let shift = Int(b[index]) - Int(a[index]) - (index < SampledFrameCollector.lumaBlocks ? lumaShift : 0)
            return abs(shift) <= stillness
        }.count
        return Double(unchanged) / Double(a.count)
    }

    /// Whether nothing is heard anywhere in `range`: no sound stream, or every 20 ms level below
    /// the video's pause level or plain silence.
    private func isSilent(_ range: ClosedRange<Double>) -> Bool {
        guard let sound, sound.hasSound else { return true }
        let threshold = max(sound.pauseLevel, Self.silence)
        var time = range.lowerBound
        while time <= range.upperBound {
            if sound.level(around: time, radius: 0.01) >= threshold { return false }
            time += sound.step
        }
        return true
    }
}
