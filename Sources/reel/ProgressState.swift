import Foundation

/// Aggregate progress at one instant.
struct ProgressSummary {
    /// How much of all the work is done, 0...1.
    var fraction: Double
    /// Media seconds encoded per wall-clock second, once measurable.
    var speed: Double?
    /// Estimated wall-clock seconds left, once measurable.
    var remaining: Double?

    /// ` (2.3x realtime, ETA 0:07)` or empty, for plain progress lines.
    var rateText: String {
        var parts: [String] = []
        if let speed { parts.append(Formatting.speed(speed) + " realtime") }
        if let remaining { parts.append("ETA " + Formatting.clock(remaining)) }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }
}

/// The bookkeeping behind `ProgressDisplay`: which files run, how far, and how long they are.
///
/// Work is weighed in media seconds; a file whose duration is unknown, or that has not
/// started yet, counts as the mean of the known durations.
struct ProgressState {
    /// One file being compressed.
    struct RunningFile {
        var name: String
        var duration: Double?
        var fraction: Double = 0
        /// What the file's compression is doing, when it says (`pass 1/2`), for the bar.
        var stage: String?
    }

    /// Files to compress in all.
    let total: Int
    /// Files running, by slot.
    var running: [Int: RunningFile] = [:]
    /// Files ended (compressed, failed or cancelled).
    var finishedCount = 0
    /// Media seconds of the ended files.
    var finishedMedia = 0.0
    /// Durations of every started file whose duration is known.
    var knownDurations: [Double] = []
    /// When the first file started.
    var started: Date?
    /// When the bar was last drawn.
    var lastDraw = Date.distantPast
    /// The last quarter reported in plain-line mode.
    var lastQuarter = 0
    /// Whether a bar is on the terminal line now.
    var barShown = false

    /// Creates the state for `total` files.
    init(total: Int) {
        self.total = total
    }

    /// Records the start of file `slot`.
    mutating func begin(slot: Int, name: String, duration: Double?) {
        if started == nil { started = Date() }
        let known = duration.flatMap { $0 > 0 ? $0 : nil }
        if let known { knownDurations.append(known) }
        running[slot] = RunningFile(name: name, duration: known)
    }

    /// Records the duration of running file `slot` when it was not known at its start.
    mutating func setDuration(_ duration: Double, slot: Int) {
        guard duration > 0, running[slot] != nil, running[slot]?.duration == nil else { return }
        knownDurations.append(duration)
        running[slot]?.duration = duration
    }

    /// Records the end of file `slot`, returning it.
    mutating func finish(slot: Int) -> RunningFile? {
        guard let file = running.removeValue(forKey: slot) else { return nil }
        finishedCount += 1
        finishedMedia += file.duration ?? meanDuration ?? 0
        return file
    }

    /// The mean duration of the files started so far, if any is known.
    private var meanDuration: Double? {
        knownDurations.isEmpty ? nil : knownDurations.reduce(0, +) / Double(knownDurations.count)
    }

    /// Fraction done, speed and time left.
    func summary(now: Date) -> ProgressSummary {
        let pending = max(total - finishedCount - running.count, 0)
        guard let mean = meanDuration else {
            let done = Double(finishedCount) + running.values.reduce(0) { $0 + $1.fraction }
            return ProgressSummary(fraction: total > 0 ? min(done / Double(total), 1) : 0)
        }
        var done = finishedMedia
        var all = finishedMedia + Double(pending) * mean
        for file in running.values {
            let length = file.duration ?? mean
            done += file.fraction * length
            all += length
        }
        var summary = ProgressSummary(fraction: all > 0 ? min(done / all, 1) : 0)
        let elapsed = started.map { now.timeIntervalSince($0) } ?? 0
        if elapsed >= 1, done > 0 {
            let speed = done / elapsed
            summary.speed = speed
            summary.remaining = max(all - done, 0) / speed
        }
        return summary
    }
}
