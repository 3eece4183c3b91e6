import Foundation
import ReelMedia
import ReelSupport
import Synchronization

/// Settles the cut candidates of the coarse pass that it cannot judge on its own: decodes a
/// short window around each at full rate and applies the adaptive cut test there, which both
/// places the cut on its exact frame and rejects motion that only looked like a cut because
/// frames were skipped. Windows are decoded in parallel, one decoder per core.
struct CutRefiner {
    let stream: ProbedStream
    let detector: ShotDetector
    /// Skipping between windows: B frames where that proved exact, else non-reference frames.
    let skippingBetween: FrameSkipping
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

    /// Windows closer than this share one decode: continuing through the frames between them
    /// costs about what seeking back to the keyframe before the next one would.
    static let sharedDecodeGap = 5.0

    /// The exact start of the new shot in each window, or `nil` where there is no cut.
    /// `finished` is called with the number of windows settled so far.
    func settle(_ windows: [Window], finished: @Sendable (Int) -> Void) throws(MediaFailure) -> [MediaTime?] {
        guard !windows.isEmpty else { return [] }
        let order = windows.indices.sorted { windows[$0].from < windows[$1].from }
        var grouping: [[Int]] = []
        for index in order {
            if let last = grouping.last?.last, (windows[index].from - windows[last].to).seconds < Self.sharedDecodeGap {
                grouping[grouping.count - 1].append(index)
            } else {
                grouping.append([index])
            }
        }
        let groups = grouping
        let results = Mutex<[MediaTime?]>(Array(repeating: nil, count: windows.count))
        let failure = Mutex<MediaFailure?>(nil)
        let done = Atomic<Int>(0)
        let stream = self.stream, detector = self.detector, shouldCancel = self.shouldCancel, between = skippingBetween
        DispatchQueue.concurrentPerform(iterations: groups.count) { position in
            guard failure.withLock({ $0 == nil }) else { return }
            let group = groups[position].map { windows[$0] }
            do throws(MediaFailure) {
                let frames = try AnalysisReader.frameChanges(
                    of: stream, windows: group.map { ($0.from.seconds - 1e-6)...($0.to.seconds + 1e-6) },
                    skippingBetween: between, shouldCancel: shouldCancel)
                let cuts = zip(group, frames).map { Self.cut(in: $0, frames: $1, detector: detector) }
                results.withLock { results in
                    for (index, cut) in zip(groups[position], cuts) { results[index] = cut }
                }
                finished(done.add(group.count, ordering: .relaxed).newValue)
            } catch .cancelled {
                failure.withLock { if $0 == nil { $0 = .cancelled } }
            } catch {
                // A window that cannot be decoded (a damaged stretch) settles nothing: its
                // candidates are dropped rather than failing the whole analysis.
                finished(done.add(group.count, ordering: .relaxed).newValue)
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { $0 }
    }

    private static func cut(in window: Window, frames: [(time: MediaTime, change: Double)], detector: ShotDetector) -> MediaTime? {
        guard frames.count > 2 else { return nil }
        // The first frame's change is measured against a frame outside the window: leave it out.
        let changes = [0] + frames.dropFirst().map(\.change)
        return detector.cuts(changes)
            .filter { frames[$0].time > window.after && frames[$0].time <= window.upTo }
            .max { changes[$0] < changes[$1] }
            .map { frames[$0].time }
    }
}
