import Foundation
import ReelKit
import Synchronization

/// Shows compression progress on standard error.
///
/// On a terminal: one redrawn line with a bar, percent, speed (x realtime) and ETA. Elsewhere
/// (logs, CI): a plain line at every quarter of a single file, or one line per finished file
/// in a batch. Silent with `--quiet`. Safe to call from any thread.
final class ProgressDisplay: Sendable {
    /// How progress is shown.
    enum Style: Sendable {
        /// A redrawn bar, at most `width` columns.
        case bar(width: Int)
        /// Occasional plain lines.
        case lines
        /// Nothing.
        case silent
    }

    private let style: Style
    private let isBatch: Bool
    private let state: Mutex<ProgressState>

    /// Creates the display for `total` files to compress.
    init(style: Style, total: Int, isBatch: Bool) {
        self.style = style
        self.isBatch = isBatch
        self.state = Mutex(ProgressState(total: total))
    }

    /// The style for standard error as it is: bar on a terminal, lines elsewhere.
    static func automaticStyle(quiet: Bool) -> Style {
        if quiet { return .silent }
        guard Console.errorIsTerminal else { return .lines }
        return .bar(width: Console.terminalWidth(of: STDERR_FILENO) ?? 80)
    }

    /// Records that file `slot` started; `duration` is the seconds of media it will encode.
    func begin(slot: Int, name: String, duration: Double?) {
        state.withLock { state in
            state.begin(slot: slot, name: name, duration: duration)
            draw(&state, force: true)
        }
    }

    /// Records the seconds of media file `slot` will encode, once they are known (after a
    /// reel's analysis).
    func update(slot: Int, duration: Double) {
        state.withLock { state in
            state.setDuration(duration, slot: slot)
            draw(&state, force: false)
        }
    }

    /// Records that file `slot` is `fraction` (0...1) done.
    func update(slot: Int, fraction: Double) {
        state.withLock { state in
            state.running[slot]?.fraction = min(max(fraction, 0), 1)
            draw(&state, force: false)
        }
    }

    /// Records which stage file `slot` is in (the two passes of a target size).
    func update(slot: Int, stage: CompressionStage) {
        let text: String?
        switch stage {
        case .firstPass: text = "pass 1/2"
        case .secondPass(let attempt): text = attempt > 1 ? "pass 2/2, again to fit" : "pass 2/2"
        case .planning: text = "analyzing"
        case .measuringLoudness: text = "measuring loudness"
        case .encoding: text = "encoding"
        }
        state.withLock { state in
            state.running[slot]?.stage = text
            draw(&state, force: true)
        }
    }

    /// Records that file `slot` ended with `status` (failures print their own error line).
    func finish(slot: Int, status: FileStatus) {
        state.withLock { state in
            guard let file = state.finish(slot: slot) else { return }
            if isBatch, status != .failed, case .lines = style {
                emitLine("[\(state.finishedCount)/\(state.total)] \(file.name): \(status.rawValue)",
                         state: &state)
            }
            draw(&state, force: true)
        }
    }

    /// Prints `line` (with its newline) on standard error without garbling the bar.
    func message(_ line: String) {
        state.withLock { state in
            emitLine(line, state: &state, always: true)
            draw(&state, force: true)
        }
    }

    /// Clears the bar, leaving the terminal line empty.
    func close() {
        state.withLock { state in
            if state.barShown { Console.printErr("\r\u{1B}[K") }
            state.barShown = false
        }
    }

    /// Writes a whole line, clearing the bar first when one is shown.
    private func emitLine(_ line: String, state: inout ProgressState, always: Bool = false) {
        if case .silent = style, !always { return }
        let clear = state.barShown ? "\r\u{1B}[K" : ""
        state.barShown = false
        Console.printErr(clear + line + "\n")
    }

    /// Redraws the bar (at most ten times a second unless `force`), or prints a quarter line.
    private func draw(_ state: inout ProgressState, force: Bool) {
        let now = Date()
        switch style {
        case .silent:
            return
        case .lines:
            guard !isBatch, let file = state.running.values.first else { return }
            let quarter = Int(file.fraction * 4)
            guard quarter > state.lastQuarter, quarter < 4 else { return }
            state.lastQuarter = quarter
            let summary = state.summary(now: now)
            Console.printErr("\(file.name): \(quarter * 25)%\(file.stage.map { " (\($0))" } ?? "")\(summary.rateText)\n")
        case .bar(let width):
            guard force || now.timeIntervalSince(state.lastDraw) >= 0.1,
                  !state.running.isEmpty else { return }
            state.lastDraw = now
            let line = barLine(state.summary(now: now), state: state, width: width)
            Console.printErr("\r" + line + "\u{1B}[K")
            state.barShown = true
        }
    }

    /// The text of the bar line, fitted to the terminal.
    private func barLine(_ summary: ProgressSummary, state: ProgressState, width: Int) -> String {
        let running = state.running.values.first
        var head = running.map { $0.name + ($0.stage.map { " (\($0))" } ?? "") } ?? ""
        if isBatch { head = "[\(state.finishedCount)/\(state.total)] " + head }
        var details: [String] = []
        if let speed = summary.speed { details.append(Formatting.speed(speed)) }
        if let eta = summary.remaining { details.append("ETA " + Formatting.clock(eta)) }
        return Self.fitted(head: head, fraction: summary.fraction, details: details, width: width)
    }

    /// `head [####----] NN%  details` in at most `width - 1` columns: the head (file name and
    /// phase) is shortened in its middle first, down to 16 columns; then the details go, last
    /// first; then the bar narrows to 10 cells; the bar and the percentage always show.
    static func fitted(head: String, fraction: Double, details: [String], width: Int) -> String {
        let room = max(width - 1, 24)
        var details = details, cells = 24, head = head
        func tail() -> String {
            let filled = Int(min(max(fraction, 0), 1) * Double(cells))
            return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "] "
                + String(format: "%3d%%", Int(min(max(fraction, 0), 1) * 100)) + details.map { "  " + $0 }.joined()
        }
        while head.count + 1 + tail().count > room {
            if head.count > 16 {
                head = middleShortened(head, to: max(16, room - 1 - tail().count))
            } else if !details.isEmpty {
                details.removeLast()
            } else if cells > 10 {
                cells -= 2
            } else {
                break
            }
        }
        return String((head.isEmpty ? tail() : head + " " + tail()).prefix(room))
    }

    /// `text` in at most `length` characters, its middle replaced by "...".
    static func middleShortened(_ text: String, to length: Int) -> String {
        guard text.count > length, length > 5 else { return String(text.prefix(length)) }
        let keep = length - 3, front = keep / 2
        return String(text.prefix(front)) + "..." + String(text.suffix(keep - front))
    }
}
