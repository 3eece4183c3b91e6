import Foundation
import Synchronization
import Testing
@testable import ReelAnalysis
@testable import ReelMedia
@testable import ReelSupport

/// Key-frame choice, queueing, cancellation and progress of the analyzer.
@Suite(.timeLimit(.minutes(5))) struct AnalyzerBehaviourTests {
    @Test func keyFramePrefersTheSharpWellExposedVersion() async throws {
        // [0,1) black, [1,3) blurred, [3,5) sharp, [5,6) underexposed: all the same content.
        let asset = MediaIntelligenceVideoAsset(id: "kf", kind: .url(try Fixtures.clip("keyframe.mp4")))
        let time = try await VideoAnalyzer().analyze(asset, for: KeyFrameAnalysisRequest()).get().timestamp.seconds
        #expect((3.0..<5.0).contains(time), "key frame at \(time)")
    }

    @Test func concurrentCallsRunOneAtATimeInOrder() async throws {
        let analyzer = VideoAnalyzer()
        let asset = MediaIntelligenceVideoAsset(id: "story", kind: .url(try Fixtures.clip("story.mp4")))
        let events = ProgressLogLines()
        let record: @Sendable (String) -> Void = { events.append($0) }
        // The first call holds the analyzer (its progress handler blocks) until the others
        // have lined up, one after the other: the order is the test's, not the scheduler's.
        let hold = HeldProgress()
        defer { hold.release() }
        let first = Task {
            _ = try await analyzer.analysis(of: asset) { value in
                hold.block()
                if value == 1 { record("end 1") }
            }
        }
        try await waitUntil { analyzer.decodePassCount == 1 }
        let second = Task {
            _ = try await analyzer.analysis(of: asset) { value in if value == 1 { record("end 2") } }
        }
        try await waitUntil { analyzer.waitingCallCount == 1 }
        let third = Task {
            _ = try await analyzer.analysis(of: asset) { value in if value == 1 { record("end 3") } }
        }
        try await waitUntil { analyzer.waitingCallCount == 2 }
        hold.release()
        try await first.value
        try await second.value
        try await third.value
        #expect(events.all == ["end 1", "end 2", "end 3"])
        #expect(analyzer.decodePassCount == 3)
    }

    @Test func progressIsMonotonicAndEndsAtOne() async throws {
        let asset = MediaIntelligenceVideoAsset(id: "story", kind: .url(try Fixtures.clip("story.mp4")))
        let log = ProgressLog()
        _ = try await VideoAnalyzer().analysis(of: asset, progressHandler: log.handler)
        let values = log.all
        #expect(values.count >= 10 && values.count <= 101)
        #expect(values.last == 1)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func badAssetsFailTyped() async throws {
        // A URL that is not a file fails where the analyzer starts: every request, and the analysis.
        let webURL = try #require(URL(string: "https://example.com/a.mp4"))
        let web = MediaIntelligenceVideoAsset(id: "web", kind: .url(webURL))
        let (webKeyFrame, webHighlights) = try await VideoAnalyzer().analyze(web, for: KeyFrameAnalysisRequest(), HighlightAnalysisRequest())
        guard case .failure(.invalidSourceURL(webURL)) = webKeyFrame, case .failure(.invalidSourceURL(webURL)) = webHighlights else {
            Issue.record("expected invalidSourceURL for both requests: \(webKeyFrame), \(webHighlights)")
            return
        }
        await #expect(throws: ReelError.invalidSourceURL(webURL)) { _ = try await VideoAnalyzer().analysis(of: web) }
        let audioOnly = MediaIntelligenceVideoAsset(id: "a", kind: .url(try Fixtures.clip("audio_only.m4a")))
        let result = try await VideoAnalyzer().analyze(audioOnly, for: KeyFrameAnalysisRequest())
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error == .missingVideoTrack(audioOnly.kind.url))
        let notVideo = MediaIntelligenceVideoAsset(id: "t", kind: .url(try Fixtures.clip("not_video.mp4")))
        let (keyFrame, highlights) = try await VideoAnalyzer().analyze(notVideo, for: KeyFrameAnalysisRequest(), HighlightAnalysisRequest())
        guard case .failure(.unreadableSource) = keyFrame, case .failure(.unreadableSource) = highlights else {
            Issue.record("expected unreadableSource for both requests")
            return
        }
    }
}

/// Blocks progress handlers (and so the analysis that calls them) until released.
final class HeldProgress: Sendable {
    private let released = DispatchSemaphore(value: 0)
    private let open = Atomic<Bool>(false)

    /// Blocks the calling thread until `release()` (returns at once after it).
    func block() {
        guard !open.load(ordering: .acquiring) else { return }
        released.wait()
        released.signal()
    }

    func release() {
        open.store(true, ordering: .releasing)
        released.signal()
    }
}

/// Lets a progress handler cancel the task it reports for, once.
final class TaskHolder: Sendable {
    private let task = Mutex<Task<VideoAnalysis, any Error>?>(nil)
    private let cancelled = Mutex<Date?>(nil)

    func set(_ value: Task<VideoAnalysis, any Error>) {
        task.withLock { $0 = value }
        if cancelled.withLock({ $0 }) != nil { value.cancel() }
    }

    func cancel() {
        let first = cancelled.withLock { date -> Bool in
            guard date == nil else { return false }
            date = Date()
            return true
        }
        if first { task.withLock { $0 }?.cancel() }
    }

    var cancelledAt: Date? { cancelled.withLock { $0 } }
}
