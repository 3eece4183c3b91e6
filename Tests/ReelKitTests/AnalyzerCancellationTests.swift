import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelMedia
@testable import ReelSupport

/// Cancellation timing of the analyzer. `make test` runs the suites named *Cancellation*
/// after the others, alone, so a loaded machine does not decide the result.
@Suite(.serialized, .timeLimit(.minutes(5))) struct AnalyzerCancellationTests {
    @Test func cancellingTheCallerReturnsPromptly() async throws {
        let asset = MediaIntelligenceVideoAsset(id: "story", kind: .url(try Fixtures.clip("story.mp4")))
        let analyzer = VideoAnalyzer()
        // Cancel from the progress handler, mid-decode, so the timing does not depend on load.
        let holder = TaskHolder()
        let task = Task {
            try await analyzer.analysis(of: asset) { value in if value > 0.2 { holder.cancel() } }
        }
        holder.set(task)
        let result = await task.result
        let latency = holder.cancelledAt.map { $0.distance(to: Date()) } ?? 0
        guard case .failure(let error) = result else {
            Issue.record("analysis was not cancelled")
            return
        }
        #expect(error as? ReelError == .cancelled)
        #expect(latency < 0.5, "cancel took \(latency) s")
        // A waiting call is cancelled too, without running. The blocker holds the analyzer
        // (its progress handler blocks) until the waiting call has been cancelled.
        let hold = HeldProgress()
        defer { hold.release() }
        let blocker = Task { try await analyzer.analysis(of: asset) { _ in hold.block() } }
        try await waitUntil { analyzer.decodePassCount == 2 }
        let waiting = Task { try await analyzer.analysis(of: asset) }
        try await waitUntil { analyzer.waitingCallCount == 1 }
        waiting.cancel()
        let waited = await waiting.result
        guard case .failure(let waitError) = waited else {
            Issue.record("waiting analysis was not cancelled")
            return
        }
        #expect(waitError as? ReelError == .cancelled)
        hold.release()
        _ = try await blocker.value
        #expect(analyzer.decodePassCount == 2)
    }
}
