import Foundation
import ReelSupport

/// Splits shots into segments no longer than `maximumDuration`, in equal chunks.
struct Segmenter {
    var maximumDuration: Double

    func split(_ shots: [TimeRange]) -> [TimeRange] {
        shots.flatMap { shot -> [TimeRange] in
            let length = shot.duration.seconds
            let pieces = max(1, Int((length / max(maximumDuration, 0.5)).rounded(.up)))
            guard pieces > 1 else { return [shot] }
            let step = shot.duration.converted(to: 1_000_000).value / Int64(pieces)
            return (0..<pieces).map { piece in
                let start = piece == 0 ? shot.start : shot.start + MediaTime(value: step * Int64(piece), timescale: 1_000_000)
                let end = piece == pieces - 1 ? shot.end : shot.start + MediaTime(value: step * Int64(piece + 1), timescale: 1_000_000)
                return TimeRange(start: start, end: end)
            }
        }
    }
}

/// Summarizes the frame and audio measurements that fall inside a segment.
enum SegmentAggregator {
    static func features(of range: TimeRange, frames: [FrameFeatures], audio: [AudioFeatures], hasAudio: Bool,
                         cutTimes: [Double], typicalLoudness: Double = -30) -> SegmentFeatures {
        let start = range.start.seconds, end = range.end.seconds
        var inside = frames.filter { $0.time >= range.start && $0.time < range.end }
        if inside.isEmpty, let nearest = frames.min(by: { abs($0.time.seconds - start) < abs($1.time.seconds - start) }) {
            inside = [nearest]
        }
        // The first sample of a shot carries the cut's change, not motion.
        let changes = inside.dropFirst().map(\.change).sorted()
        let motion = changes.isEmpty ? 0 : changes[changes.count / 2]
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
        func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        let searched = inside.compactMap(\.faces)
        let withFaces = searched.filter { $0.count > 0 }
        let sound = audio.filter { $0.start >= start - 0.05 && $0.start < end }
        let window = 10.0
        let nearbyCuts = cutTimes.filter { $0 >= (start + end) / 2 - window && $0 < (start + end) / 2 + window }.count
        let covered = min(end + window, max(end, cutTimes.last ?? end)) - max(start - window, 0)
        let loudness = hasAudio && !sound.isEmpty ? 10 * log10Mean(sound.map(\.loudness)) : -100
        var features = SegmentFeatures(
            motion: motion,
            sharpness: mean(inside.map(\.sharpness)),
            brightness: mean(inside.map(\.brightness)),
            contrast: mean(inside.map(\.contrast)),
            colorfulness: mean(inside.map(\.colorfulness)),
            blankFraction: Double(inside.filter(\.isBlank).count) / Double(max(inside.count, 1)),
            loudness: loudness,
            onsetRate: sound.isEmpty ? 0 : sound.map(\.onset).reduce(0, +) / max(end - start, 0.1),
            cutsPerMinute: Double(nearbyCuts) / max(covered, 2 * window) * 60,
            faceShare: searched.isEmpty ? 0 : Double(withFaces.count) / Double(searched.count),
            faceArea: mean(searched.map(\.largestArea)),
            faceCentrality: mean(withFaces.map(\.centrality)))
        features.subject = mean(inside.map(\.subject))
        let measured = withFaces.filter { $0.smile != nil }
        if !measured.isEmpty {
            features.faceExpression = mean(measured.map { max($0.smile ?? 0, $0.facesCamera == true ? 0.5 : 0) })
        }
        // Text is seen best on the larger pictures of the face pass, where there are some.
        let checked = inside.filter(\.textChecked)
        features.textShare = max(
            Double(inside.filter { $0.textLikeness > 0.5 }.count) / Double(max(inside.count, 1)),
            Double(checked.filter { $0.textLikeness > 0.5 }.count) / Double(max(checked.count, 1)))
        features.subjectMotion = median(inside.dropFirst().map(\.subjectMotion))
        features.cameraMotion = median(inside.dropFirst().map(\.cameraMotion))
        if hasAudio && !sound.isEmpty {
            features.loudnessAboveTypical = loudness - typicalLoudness
            // Half-second windows (five of 0.1 s), the loudest one.
            var loudest = -100.0
            for first in stride(from: 0, to: sound.count, by: 1) where first + 5 <= sound.count || first == 0 {
                let window = sound[first..<min(first + 5, sound.count)].map(\.loudness)
                loudest = max(loudest, 10 * log10Mean(window))
            }
            features.burst = loudest - typicalLoudness
            features.silenceShare = Double(sound.filter { $0.loudness < -55 }.count) / Double(sound.count)
            features.speechLikeness = speechLikeness(sound.flatMap(\.stepEnergies))
        }
        return features
    }

    /// How much sound is like speech, 0...1, from the low short-time energy ratio: speech
    /// alternates syllables and short pauses, so in each second many 20 ms steps fall under half
    /// the second's mean energy (measured: 0.52 to 0.62 of them in dialogue and synthetic
    /// speech), while music, effects and steady noise keep more of their energy (0.18 to 0.40 in
    /// Big Buck Bunny's score). The median second counts; a rough cue, not a classifier.
    static func speechLikeness(_ steps: [Float]) -> Double {
        let perSecond = 50
        var ratios: [Double] = []
        var start = 0
        while start + perSecond / 2 <= steps.count {
            let block = steps[start..<min(start + perSecond, steps.count)]
            start += perSecond
            let mean = Double(block.reduce(0, +)) / Double(block.count)
            guard mean > 1e-6 else { continue }
            ratios.append(Double(block.filter { Double($0) < 0.5 * mean }.count) / Double(block.count))
        }
        guard !ratios.isEmpty else { return 0 }
        let ratio = ratios.sorted()[ratios.count / 2]
        return min(max((ratio - 0.4) / 0.15, 0), 1)
    }

    /// The video's typical loudness: the median of its 0.1 s windows that are not near silence
    /// (-60 dBFS when nearly all of it is).
    static func typicalLoudness(_ audio: [AudioFeatures]) -> Double {
        let sounding = audio.map(\.loudness).filter { $0 > -60 }.sorted()
        guard sounding.count >= max(audio.count / 10, 1) else { return -60 }
        return sounding[sounding.count / 2]
    }

    /// The mean power of dB values, back in dB / 10 (so that 10 x result is dB).
    private static func log10Mean(_ decibels: [Double]) -> Double {
        let power = decibels.map { pow10($0 / 10) }.reduce(0, +) / Double(decibels.count)
        return power > 1e-10 ? log10Value(power) : -10
    }

    private static func pow10(_ value: Double) -> Double { exp(value * 2.302585092994046) }
    private static func log10Value(_ value: Double) -> Double { log(value) / 2.302585092994046 }
}
