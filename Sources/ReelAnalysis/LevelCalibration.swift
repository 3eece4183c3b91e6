import Foundation

/// Turns raw engagement (0...1 per segment) into levels 0...9 that mean the same on any video.
///
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
