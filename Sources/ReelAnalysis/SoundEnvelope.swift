import Foundation

/// How loud a video's sound is every 20 ms, kept with the analysis so that edits can be cut
/// where nothing is said: the pauses between sentences, the lows between sounds.
package struct SoundEnvelope: Sendable, Equatable, Codable {
    /// Seconds of the first step (on the analysis's timeline).
    package var start: Double
    /// Seconds per step.
    package var step: Double
    /// Each step's RMS level in whole dBFS, -100 for digital silence.
    package var levels: [Int8]
    /// The video's typical level in dBFS (median of its sounding 0.1 s windows).
    package var typical: Double

    package init(start: Double, step: Double, levels: [Int8], typical: Double) {
        self.start = start
        self.step = step
        self.levels = levels
        self.typical = typical
    }

    /// The envelope of the analysis's audio windows (their 20 ms step energies).
    init?(windows: [AudioFeatures], typical: Double) {
        guard let first = windows.first, let steps = first.stepEnergies.count > 0 ? first.stepEnergies.count : nil else { return nil }
        start = first.start
        step = (windows.count > 1 ? windows[1].start - first.start : 0.1) / Double(steps)
        levels = windows.flatMap { window in
            window.stepEnergies.map { energy in
                energy > 1e-10 ? Int8(clamping: Int((10 * log10(Double(energy))).rounded())) : -100
            }
        }
        self.typical = typical
    }

    /// Seconds after the last step.
    package var end: Double { start + Double(levels.count) * step }

    /// The loudest step within `radius` seconds of `time` (a pause must be quiet throughout,
    /// not in one gap between syllables); -100 outside the envelope.
    package func level(around time: Double, radius: Double = 0.03) -> Double {
        let first = max(Int(((time - radius - start) / step).rounded(.down)), 0)
        let last = min(Int(((time + radius - start) / step).rounded(.up)), levels.count - 1)
        guard first <= last else { return -100 }
        return Double(levels[first...last].max() ?? -100)
    }

    /// Below this, the sound counts as a pause: 18 dB under the typical level, and never
    /// louder than -38 dBFS (quiet rooms, breaths).
    package var pauseLevel: Double { min(typical - 18, -38) }

    /// Whether the sound around `time` is a pause.
    package func isQuiet(at time: Double) -> Bool { level(around: time) < pauseLevel }

    /// Whether there is any sound worth cutting around: some step above the pause level.
    package var hasSound: Bool { levels.contains { Double($0) >= pauseLevel } }

    /// The pauses (runs of steps under `pauseLevel`, at least `minimum` seconds) that overlap
    /// `range`, as time ranges; a run is followed past the range's ends so its true length counts.
    package func pauses(overlapping range: ClosedRange<Double>, minimum: Double = 0.1) -> [ClosedRange<Double>] {
        let threshold = pauseLevel
        func quiet(_ index: Int) -> Bool { Double(levels[index]) < threshold }
        var index = max(Int(((range.lowerBound - start) / step).rounded(.down)) - 1, 0)
        let last = min(Int(((range.upperBound - start) / step).rounded(.up)) + 1, levels.count - 1)
        guard index <= last else { return [] }
        while index > 0 && quiet(index) && quiet(index - 1) { index -= 1 }
        var result: [ClosedRange<Double>] = []
        while index <= last {
            guard quiet(index) else { index += 1; continue }
            let opened = index
            while index < levels.count && quiet(index) { index += 1 }
            let pause = (start + Double(opened) * step)...(start + Double(index) * step)
            if pause.upperBound - pause.lowerBound >= minimum - 1e-9 { result.append(pause) }
        }
        return result
    }

    /// How far (dB) the sound around `time` lies under the loudest step within `reach`
    /// seconds: a word's middle is near 0, the gap between words or sounds 10 dB and more.
    package func dip(at time: Double, reach: Double = 0.5) -> Double {
        level(around: time, radius: reach) - level(around: time)
    }

    /// How long (seconds) the sound stays `depth` dB under the loudest step within `reach` of
    /// `time`, around `time`: the gap a cut there falls in (0 when `time` is not in one).
    package func gapLength(at time: Double, depth: Double = 8, reach: Double = 0.5) -> Double {
        let ceiling = level(around: time, radius: reach) - depth
        let center = Int(((time - start) / step).rounded(.down))
        guard center >= 0, center < levels.count, Double(levels[center]) <= ceiling else { return 0 }
        var first = center, last = center
        while first > 0, Double(levels[first - 1]) <= ceiling { first -= 1 }
        while last + 1 < levels.count, Double(levels[last + 1]) <= ceiling { last += 1 }
        return Double(last - first + 1) * step
    }

    /// The moments within `range` where the sound dips at least `depth` dB under its
    /// surroundings and is lowest within 0.1 s: gaps between words, lows between sounds.
    package func lows(in range: ClosedRange<Double>, depth: Double = 10) -> [Double] {
        var result: [Double] = []
        var time = range.lowerBound
        while time <= range.upperBound {
            let here = level(around: time)
            if dip(at: time) >= depth,
               here <= level(around: time - step), here <= level(around: time + step),
               result.last.map({ time - $0 > 0.1 }) ?? true {
                result.append(time)
            }
            time += step
        }
        return result
    }

    /// The quietest moment within `range` (the middle of the quietest 60 ms).
    package func quietest(in range: ClosedRange<Double>) -> Double? {
        var best: (time: Double, level: Double)?
        var time = range.lowerBound
        while time <= range.upperBound {
            let level = self.level(around: time)
            if best.map({ level < $0.level }) ?? true { best = (time, level) }
            time += step
        }
        return best?.time
    }

    /// The envelope moved by `seconds`.
    func shifted(by seconds: Double) -> SoundEnvelope {
        var moved = self
        moved.start += seconds
        return moved
    }

    private enum CodingKeys: String, CodingKey { case start, step, levels, typical }

    /// Levels are saved as base64 bytes.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decode(Double.self, forKey: .start)
        step = try container.decode(Double.self, forKey: .step)
        typical = try container.decode(Double.self, forKey: .typical)
        levels = try SignatureCoding.decode(container.decode(String.self, forKey: .levels)).map { Int8(bitPattern: $0) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(step, forKey: .step)
        try container.encode(typical, forKey: .typical)
        try container.encode(SignatureCoding.encode(levels.map { UInt8(bitPattern: $0) }), forKey: .levels)
    }
}
