import Foundation
import Synchronization

/// Settles the cut candidates of the coarse pass that it cannot judge on its own: decodes a
/// short window around each at full rate and applies the adaptive cut test there, which both
/// places the cut on its exact frame and rejects motion that only looked like a cut because
/// frames were skipped. Windows are decoded in parallel, one decoder per core.
struct CutRefiner {
    let url: URL
    let detector: ShotDetector
    let shouldCancel: @Sendable () -> Bool

    /// A candidate's window: the decoded frames around it (full rate) and the span where the
    /// new shot must start, `(after, upTo]`.
    struct Window: Sendable {
        var from: MediaTime
        var to: MediaTime
        var after: MediaTime
        var upTo: MediaTime
    }

    /// The window for candidate `index` of a coarse series of decoded frame `times`: two
    /// decoded frames of context on each side, enough for the test's neighbours at full rate.
    static func window(around index: Int, in times: [MediaTime]) -> Window {
        Window(
            from: times[max(index - 3, 0)], to: times[min(index + 2, times.count - 1)],
            after: times[index - 1], upTo: times[index])
    }

    /// The exact start of the new shot in each window, or `nil` where there is no cut.
    /// `finished` is called after each window.
    func settle(_ windows: [Window], finished: @Sendable (Int) -> Void) throws -> [MediaTime?] {
        guard !windows.isEmpty else { return [] }
        let results = Mutex<[MediaTime?]>(Array(repeating: nil, count: windows.count))
        let failure = Mutex<(any Error)?>(nil)
        let done = Atomic<Int>(0)
        let url = self.url, detector = self.detector, shouldCancel = self.shouldCancel
        DispatchQueue.concurrentPerform(iterations: windows.count) { position in
            guard failure.withLock({ $0 == nil }) else { return }
            do {
                let found = try Self.cut(in: windows[position], url: url, detector: detector, shouldCancel: shouldCancel)
                results.withLock { $0[position] = found }
                finished(done.add(1, ordering: .relaxed).newValue)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { $0 }
    }

    private static func cut(
        in window: Window, url: URL, detector: ShotDetector, shouldCancel: @escaping @Sendable () -> Bool
    ) throws -> MediaTime? {
        let frames = try AnalysisReader.frameChanges(
            url: url, from: window.from.seconds - 1e-6, to: window.to.seconds + 1e-6, shouldCancel: shouldCancel)
        guard frames.count > 2 else { return nil }
        // The first frame's change is measured against nothing: leave it out of the test.
        let changes = [0] + frames.dropFirst().map(\.change)
        return detector.cuts(changes)
            .filter { frames[$0].time > window.after && frames[$0].time <= window.upTo }
            .max { changes[$0] < changes[$1] }
            .map { frames[$0].time }
    }
}
