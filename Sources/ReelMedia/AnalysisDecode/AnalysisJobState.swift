import Foundation
import ReelSupport
import Synchronization

/// What the workers of one analysis decode share: the next job to take, each chunk's result,
/// the progress made, and the first failure (which stops the others).
final class AnalysisJobState: Sendable {
    private struct Shared {
        var nextJob = 0
        var results: [ChunkChanges?]
        var levels: [FrameSkipping?]
        var covered: [Double]
        var reported = 0.0
        var error: MediaFailure?
        var skipping: FrameSkipping?
        var bFramesRejected = false
    }

    private let shared: Mutex<Shared>
    private let stopped = Atomic<Bool>(false)
    private let duration: Double
    private let progress: @Sendable (Double) -> Void

    init(chunkCount: Int, duration: Double, progress: @escaping @Sendable (Double) -> Void) {
        shared = Mutex(Shared(
            results: Array(repeating: nil, count: chunkCount), levels: Array(repeating: nil, count: chunkCount),
            covered: Array(repeating: 0, count: chunkCount)))
        self.duration = duration
        self.progress = progress
    }

    /// Whether a worker failed; the others stop at their next packet.
    var failed: Bool { stopped.load(ordering: .relaxed) }

    /// The first failure, if any.
    var firstError: MediaFailure? { shared.withLock { $0.error } }

    /// Takes the next job index below `count`, or `nil` when none is left or a worker failed.
    func nextJob(below count: Int) -> Int? {
        guard !failed else { return nil }
        return shared.withLock { state in
            guard state.nextJob < count else { return nil }
            defer { state.nextJob += 1 }
            return state.nextJob
        }
    }

    /// Records how many seconds of chunk `index` are decoded; reports overall progress in
    /// steps of at least 0.5%.
    func advance(chunk index: Int, covered seconds: Double) {
        guard duration > 0 else { return }
        let fraction: Double? = shared.withLock { state in
            state.covered[index] = max(state.covered[index], seconds)
            let fraction = min(state.covered.reduce(0, +) / duration, 1)
            guard fraction >= state.reported + 0.005 else { return nil }
            state.reported = fraction
            return fraction
        }
        if let fraction { progress(fraction) }
    }

    /// The frame skipping a chunk starts with: `requested`, or the fuller level an earlier chunk
    /// had to fall back to.
    func skipping(startingAt requested: FrameSkipping) -> FrameSkipping {
        shared.withLock { $0.skipping } ?? requested
    }

    /// Records the level a chunk's decode settled on, if it decodes more than the current one.
    func settle(skipping level: FrameSkipping) {
        shared.withLock { $0.skipping = max($0.skipping ?? level, level) }
    }

    /// Stores the result of chunk `index`, decoded at `level`.
    func finish(chunk index: Int, _ changes: ChunkChanges, skipping level: FrameSkipping) {
        shared.withLock { state in
            state.results[index] = changes
            state.levels[index] = level
        }
    }

    /// Records that skipping B frames is not exact for this stream: chunks from now on skip only
    /// non-reference frames.
    func rejectSkippingBFrames() {
        shared.withLock { $0.bFramesRejected = true }
        settle(skipping: .nonReference)
    }

    /// Whether the skip check found skipping B frames inexact.
    var bFramesWereRejected: Bool { shared.withLock { $0.bFramesRejected } }

    /// Whether chunk `index` skipped B frames although the stream turned out not to allow it.
    func skippedBFramesWrongly(chunk index: Int) -> Bool {
        shared.withLock { $0.bFramesRejected && $0.levels[index] == .bidirectional }
    }

    /// Starts handing out jobs from the first again (for a second round).
    func resetJobs() {
        shared.withLock { $0.nextJob = 0 }
    }

    /// Records a failure (the first one wins) and stops the other workers.
    func fail(_ error: MediaFailure) {
        shared.withLock { state in
            if state.error == nil { state.error = error }
        }
        stopped.store(true, ordering: .relaxed)
    }

    /// The chunk results in time order (chunks that produced nothing are empty).
    func results() -> [ChunkChanges] {
        shared.withLock { $0.results.map { $0 ?? ChunkChanges() } }
    }
}
