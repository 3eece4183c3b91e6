import Foundation
import ReelSupport

/// Turns raw engagement (0...1 per segment) into levels 0...9 that mean the same on any video.
///
/// Raw engagement is first smoothed over time (`smoothingSeconds`).
/// Levels are relative to the video's own spread: the duration-weighted 10th percentile of
/// raw engagement maps to level 0 and the 95th to level 9, linearly between. A video whose raw
/// engagement barely varies (a static slide, an empty corridor, a uniformly busy scene) has no
/// moments that stand out, so its levels stay absolute instead: `9 x 0.6 x raw`, never above
/// 5.4, under the default highlight level. Between the two, the relative part fades in as the
/// spread (95th minus 10th percentile) grows from `flatSpread` to `flatSpread + fadeSpread`.
public struct LevelCalibration: Sendable, Equatable {
    /// Spread of raw engagement at or below which a video counts as uneventful.
    public var flatSpread = 0.015
    /// Spread over `flatSpread` at which levels are fully relative.
    public var fadeSpread = 0.035
    /// Scale of the absolute levels of uneventful videos (times 9).
    public var flatScale = 0.6
    /// Engagement is felt over passages, not single seconds: each segment's raw engagement is
    /// first averaged with its neighbourhood by a Gaussian of this many seconds (0: none), so a
    /// lull inside an action passage or a one-second swell of music in a calm one counts less.
    public var smoothingSeconds = 2.5

    /// The defaults.
    public init() {}

    /// The level (0...9, two decimals) of every raw engagement value, each weighted by its
    /// segment's duration for the percentiles.
    func levels(_ raw: [Double], durations: [Double]) -> [Double] {
        guard !raw.isEmpty else { return [] }
        let low = Self.percentile(raw, durations: durations, 0.10)
        let high = Self.percentile(raw, durations: durations, 0.95)
        let spread = high - low
        let relativeShare = min(max((spread - flatSpread) / max(fadeSpread, 1e-6), 0), 1)
        return raw.map { value in
            let relative = spread > 1e-9 ? min(max((value - low) / spread, 0), 1) : 0
            let absolute = flatScale * min(max(value, 0), 1)
            return (9 * (relativeShare * relative + (1 - relativeShare) * absolute) * 100).rounded() / 100
        }
    }

    /// `raw` (one value per range, the ranges contiguous and in time order) averaged over time
    /// with a Gaussian of `smoothingSeconds` (at most a sixteenth of the video), on a grid of
    /// quarter seconds; each range gets the mean of the smoothed grid inside it.
    func smoothed(_ raw: [Double], ranges: [TimeRange]) -> [Double] {
        guard smoothingSeconds > 0, raw.count == ranges.count, let first = ranges.first, let last = ranges.last else { return raw }
        // A short clip is smoothed less: a 10 s clip by 0.6 s, not by a quarter of its length.
        let sigma = min(smoothingSeconds, (last.end - first.start).seconds / 16)
        guard sigma >= 0.1 else { return raw }
        let step = 0.25, origin = first.start.seconds
        let cells = max(Int(((last.end.seconds - origin) / step).rounded(.up)), 1)
        var grid = [Double](repeating: 0, count: cells)
        var range = 0
        for cell in 0..<cells {
            let time = origin + (Double(cell) + 0.5) * step
            while range < ranges.count - 1 && ranges[range].end.seconds <= time { range += 1 }
            grid[cell] = raw[range]
        }
        let reach = Int((3 * sigma / step).rounded(.up))
        let kernel = (-reach...reach).map { exp(-0.5 * pow(Double($0) * step / sigma, 2)) }
        var smooth = [Double](repeating: 0, count: cells)
        for cell in 0..<cells {
            var sum = 0.0, weight = 0.0
            for offset in -reach...reach where cell + offset >= 0 && cell + offset < cells {
                let w = kernel[offset + reach]
                sum += w * grid[cell + offset]
                weight += w
            }
            smooth[cell] = sum / weight
        }
        return ranges.indices.map { index in
            let from = max(Int(((ranges[index].start.seconds - origin) / step).rounded(.down)), 0)
            let to = min(max(Int(((ranges[index].end.seconds - origin) / step).rounded(.down)), from + 1), cells)
            guard from < to else { return raw[index] }
            return smooth[from..<to].reduce(0, +) / Double(to - from)
        }
    }

    /// The duration-weighted `fraction` percentile of `values`.
    static func percentile(_ values: [Double], durations: [Double], _ fraction: Double) -> Double {
        let pairs = zip(values, durations.count == values.count ? durations : values.map { _ in 1 })
            .sorted { $0.0 < $1.0 }
        let total = pairs.map(\.1).reduce(0, +)
        guard total > 0 else { return pairs.first?.0 ?? 0 }
        var covered = 0.0
        for (value, weight) in pairs {
            covered += weight
            if covered >= fraction * total { return value }
        }
        return pairs.last?.0 ?? 0
    }
}
