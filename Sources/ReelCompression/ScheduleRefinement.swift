import ReelMedia

/// A rate schedule refined from a measured encode, half second by half second.
///
/// A shot at one rate factor spends alike on its easy and its hard moments, and its hard
/// moments make the low percentiles of quality. After one measured encode, each window of about
/// `windowSeconds` inside a segment gets its own rate factor: the one it had, moved by its own
/// measured error along its segment's sample slope (`RateFactorFit.corrected`). Windows after
/// a segment's first change the rate factor without a keyframe; the encoder's frame-accurate
/// timing of changes is `RateScheduler`'s.
enum ScheduleRefinement {
    /// Seconds per window; a last piece under half of it joins the window before. On BBB's
    /// first minute at SSIM 0.98, 1 s windows saved 13.9% against the fixed CRF matching mean
    /// and 5th percentile, 0.5 s windows 16.9%.
    static let windowSeconds = 0.5
    /// Pictures a window holds at least, so its measured mean is not a few pictures' noise
    /// (vtest at 10 fps: windows of 5 pictures saved 14.2%, of 10 15.8%, of 12 14.9%).
    static let minimumPictures = 10.0

    /// The window length for a video of `frameRate`.
    static func windowLength(frameRate: Double) -> Double {
        max(windowSeconds, minimumPictures / max(frameRate, 1))
    }

    /// The windows of `segments` (output times), each with its segment's index.
    static func windows(
        of segments: [TargetQualityJob.Segment], length: Double = windowSeconds
    ) -> [(segment: Int, start: Double, end: Double)] {
        var result: [(segment: Int, start: Double, end: Double)] = []
        for (index, segment) in segments.enumerated() {
            let end = segment.outputStart + segment.duration
            var start = segment.outputStart
            while start < end - 1e-6 {
                var stop = min(start + length, end)
                if end - stop < length / 2 { stop = end }
                result.append((index, start, stop))
                start = stop
            }
        }
        return result
    }

    /// A rate factor per window: the one `latest` gave it, corrected by the quality its
    /// pictures measured there, along the slope between `previous` and `latest` for that window
    /// when there is one, else its segment's sample `points`; the first window of each segment
    /// opens a keyframe. Windows without measured pictures keep their rate factor.
    static func windowed(
        _ latest: FinalEncode.Outcome, previous: FinalEncode.Outcome?, segments: [TargetQualityJob.Segment],
        points: [[(crf: Double, value: Double)]], target: TargetQuality, length: Double = windowSeconds
    ) -> [RateChange] {
        let windows = windows(of: segments, length: length)
        let spans = windows.map { (start: $0.start, end: $0.end) }
        let latestMeans = FinalEncode.means(of: latest.frames, in: spans)
        let previousMeans = previous.map { FinalEncode.means(of: $0.frames, in: spans) }
        return windows.indices.map { index in
            let window = windows[index]
            let current = FinalEncode.rateFactor(of: latest.schedule, at: window.start)
            var rateFactor = current
            if let measured = latestMeans[index], points.indices.contains(window.segment) {
                let before = previous.flatMap { outcome in
                    previousMeans?[index].map { (crf: FinalEncode.rateFactor(of: outcome.schedule, at: window.start), value: $0) }
                }
                rateFactor = RateFactorFit.corrected(
                    target: target.value, chosen: current, measured: measured,
                    points: points[window.segment], metric: target.metric, previous: before)
            }
            let opens = abs(window.start - segments[window.segment].outputStart) < 1e-6
            return RateChange(start: window.start, constantRateFactor: (rateFactor * 100).rounded() / 100, forcesKeyframe: opens)
        }
    }

    /// How far `outcome`'s windows are from the target, weighted by duration; a window above the
    /// target at the highest rate factor counts as on it (nothing makes it worse).
    static func miss(
        _ outcome: FinalEncode.Outcome, segments: [TargetQualityJob.Segment], target: TargetQuality, length: Double = windowSeconds
    ) -> Double {
        var total = 0.0, weighted = 0.0
        let windows = windows(of: segments, length: length)
        let means = FinalEncode.means(of: outcome.frames, in: windows.map { (start: $0.start, end: $0.end) })
        for (window, mean) in zip(windows, means) {
            guard let value = mean else { continue }
            let length = window.end - window.start
            let capped = FinalEncode.rateFactor(of: outcome.schedule, at: window.start) >= 51 - 1e-6 && value >= target.value
            total += length
            weighted += capped ? 0 : length * abs(value - target.value)
        }
        return total > 0 ? weighted / total : 0
    }
}
