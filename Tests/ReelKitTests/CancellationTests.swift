import Foundation
import Synchronization
import Testing
@testable import ReelCompression
@testable import ReelSupport

/// Cancelling by `cancel()` and by the Swift task: prompt, typed, nothing left behind.
/// `make test` runs the suites named *Cancellation* after the others, alone, so a loaded
/// machine does not decide the timing.
@Suite(.serialized, .timeLimit(.minutes(5))) struct CancellationTests {
    /// A configuration slow enough to cancel mid-way: full-size HEVC of the 1.5 s 2K clip.
    static func slowConfig(in directory: URL) -> CompressionConfig {
        var config = Harness.fastConfig(in: directory)
        config.videoCodec = .hevc
        config.encoderSpeed = .medium
        return config
    }

    @Test func cancelMethodStopsPromptlyAndLeavesNoFile() async throws {
        let source = try Fixtures.clip("preset_source.mp4")
        let directory = try Fixtures.scratchDirectory()
        let compressor = VideoCompressor()
        let started = Mutex<Bool>(false)
        let cancelledAt = Mutex<Date?>(nil)
        let task = Task {
            try await compressor.compressVideo(source, config: Self.slowConfig(in: directory)) { value in
                if value > 0.5 && !started.withLock({ $0 }) {
                    started.withLock { $0 = true }
                    cancelledAt.withLock { $0 = Date() }
                    compressor.cancel()
                }
            }
        }
        let result = await task.result
        let finished = Date()
        guard case .failure(let error) = result else {
            Issue.record("compression was not cancelled")
            return
        }
        #expect(error as? ReelError == .cancelled)
        let latency = try #require(cancelledAt.withLock { $0 }).distance(to: finished)
        #expect(latency < 0.5, "cancel took \(latency) s")
        #expect(Fixtures.contents(of: directory).isEmpty)
    }

    /// Cancelled during the first of two passes (target size): no output and no statistics
    /// folder are left.
    @Test func cancellingATargetSizeLeavesNoStatistics() async throws {
        let source = try Fixtures.clip("preset_source.mp4")
        let directory = try Fixtures.scratchDirectory()
        let compressor = VideoCompressor()
        var config = Self.slowConfig(in: directory)
        config.targetFileSize = .bytes(1_500_000)
        config.useExplicitBitrate = false  // no cap that fits the target: two passes
        let cancelled = Mutex<Bool>(false)
        let sawStatistics = Mutex<Bool>(false)
        let result = await Task {
            try await compressor.compressVideo(source, config: config) { value in
                guard value > 0.1, !cancelled.withLock({ $0 }) else { return }
                cancelled.withLock { $0 = true }
                let names = Fixtures.contents(of: directory)
                sawStatistics.withLock { $0 = names.contains { $0.hasSuffix(".2pass") } }
                compressor.cancel()
            }
        }.result
        guard case .failure(let error) = result else {
            Issue.record("compression was not cancelled")
            return
        }
        #expect(error as? ReelError == .cancelled)
        #expect(sawStatistics.withLock { $0 }, "the statistics folder should exist during the first pass")
        #expect(Fixtures.contents(of: directory).isEmpty, "\(Fixtures.contents(of: directory))")
    }

    @Test func cancellingTheTaskStopsTheWork() async throws {
        let source = try Fixtures.clip("preset_source.mp4")
        let directory = try Fixtures.scratchDirectory()
        let progressed = ProgressLog()
        let task = Task {
            try await VideoCompressor().compressVideo(source, config: Self.slowConfig(in: directory),
                                                      progressHandler: progressed.handler)
        }
        try await waitUntil(seconds: 120) { (progressed.all.last ?? 0) >= 0.5 }
        let cancelled = Date()
        task.cancel()
        let result = await task.result
        let latency = cancelled.distance(to: Date())
        guard case .failure(let error) = result else {
            Issue.record("compression was not cancelled")
            return
        }
        #expect(error as? ReelError == .cancelled)
        #expect(latency < 0.5, "cancel took \(latency) s")
        #expect(Fixtures.contents(of: directory).isEmpty)
    }
}
