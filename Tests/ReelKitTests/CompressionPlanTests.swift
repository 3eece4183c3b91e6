import Foundation
import Synchronization
import Testing
@testable import ReelAnalysis
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia
import ReelSupport

/// A compression planned once, shown without running (a dry run), then run from the plan.
@Suite(.timeLimit(.minutes(5))) struct CompressionPlanTests {
    /// A trim planner that counts its calls and keeps the first two seconds.
    struct CountingTrim: TrimPlanner, Equatable {
        static let calls = Mutex(0)
        var progressShare: Double { 0.5 }
        var maximumDuration: Double? { nil }
        func ranges(of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void) async throws(ReelError) -> [TimeRange] {
            Self.calls.withLock { $0 += 1 }
            return [TimeRange(start: .zero, end: MediaTime(value: 2, timescale: 1))]
        }
    }

    @Test func aPlanShowsTheKeptRangesAndWritesNothing() async throws {
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory.appendingPathComponent("not-yet"))
        config.trim = .ranges([
            TimeRange(start: MediaTime(value: 1, timescale: 1), end: MediaTime(value: 2, timescale: 1)),
            TimeRange(start: MediaTime(value: 201, timescale: 20), end: MediaTime(value: 12, timescale: 1)),
        ])
        let compressor = VideoCompressor()
        let plan = try await compressor.plan(try Fixtures.clip("story.mp4"), config: config)
        // 10.05 s is on no frame of 30 fps: the range starts on frame 302.
        #expect(plan.keptRanges.map(\.start.seconds) == [1, 10.066667])
        #expect(abs(plan.keptDuration - 2.933333) < 1e-6)
        #expect(plan.videoCodec == .h264)
        #expect(plan.outputURL.deletingLastPathComponent().lastPathComponent == "not-yet")
        #expect(Fixtures.contents(of: directory).isEmpty, "a plan creates nothing, not even the output's folder")

        let result = try await compressor.compress(plan)
        #expect(result.url == plan.outputURL)
        #expect(result.analytics.keptRanges == plan.keptRanges)
        #expect(abs(result.analytics.compressedDuration - plan.keptDuration) < 0.05)
        let planning = try #require(result.analytics.planningTime)
        #expect(planning == plan.planningTime && result.analytics.processingTime > planning)
    }

    /// The reel's analysis runs while planning; the plan and the result both carry it, so a
    /// report (or a dry run) shows it without a second analysis.
    @Test func aHighlightReelsPlanAndResultCarryItsAnalysis() async throws {
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.trim = .highlights(HighlightReelOptions(maximumDuration: 6))
        let compressor = VideoCompressor()
        let plan = try await compressor.plan(try Fixtures.clip("story.mp4"), config: config)
        let analysis = try #require(plan.analysis)
        #expect(analysis.duration > 23 && !analysis.shots.isEmpty)
        #expect(!plan.keptRanges.isEmpty && plan.keptDuration <= 6.001)
        guard case .ranges(let chosen) = plan.config.trim else {
            Issue.record("the plan's trim is not resolved to ranges: \(plan.config.trim)")
            return
        }
        #expect(chosen.count == plan.keptRanges.count)
        #expect(plan.planningTime > 0)

        let result = try await compressor.compress(plan)
        #expect(result.analysis?.shots == analysis.shots)
        #expect(result.analytics.keptRanges == plan.keptRanges)
        #expect(try #require(result.analytics.planningTime) == plan.planningTime)
        #expect(result.analytics.processingTime > plan.planningTime)
    }

    /// A clip shorter than the shortest piece (2 s) with a budget that holds it is its own reel:
    /// it was 'nothing to keep ... give a budget (--max-duration)', budget given.
    @Test func aClipShorterThanAPieceIsItsOwnReel() async throws {
        let directory = try Fixtures.scratchDirectory()
        let clip = directory.appendingPathComponent("one-second.mp4")
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=1",
                                             "-c:v", "libx264", "-preset", "ultrafast", clip.path])
        var config = Harness.fastConfig(in: directory)
        config.trim = .highlights(HighlightReelOptions(maximumDuration: 4))
        let plan = try await VideoCompressor().plan(clip, config: config)
        #expect(abs(plan.keptDuration - 1) < 0.05, "\(plan.keptRanges)")
    }

    /// `compressVideo` of a reel reports the whole time, analysis included (it reported the
    /// encode alone), and the result carries the analysis.
    @Test func aReelsTimeIncludesItsAnalysis() async throws {
        let (result, _, _) = try await Harness.compress("story.mp4") {
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 4))
        }
        let planning = try #require(result.analytics.planningTime)
        #expect(planning > 0 && result.analytics.processingTime > planning)
        #expect(result.analysis != nil)
    }

    /// An output that cannot be written fails before the planner runs (a reel's analysis took
    /// its whole time before the path was found bad).
    @Test func anUnwritableOutputFailsBeforePlanning() async throws {
        let before = CountingTrim.calls.withLock { $0 }
        var config = Harness.fastConfig(in: try Fixtures.scratchDirectory())
        config.outputURL = URL(fileURLWithPath: "/proc/reel-plan-test/out.mp4")
        config.trim = .planned(CountingTrim())
        let error = await Harness.reelError {
            _ = try await VideoCompressor().compressVideo(try Fixtures.clip("story.mp4"), config: config)
        }
        guard case .invalidOutputPath(let url, _) = error else {
            Issue.record("expected invalidOutputPath, got \(String(describing: error))")
            return
        }
        #expect(url.path == "/proc/reel-plan-test/out.mp4")
        #expect(CountingTrim.calls.withLock { $0 } == before)
    }

    /// A batch checks its settings once and plans each file with them.
    @Test func aValidatedConfigPlansEveryFileOfABatch() async throws {
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.trimEndTime = MediaTime(value: 1, timescale: 1)
        let checked = try config.validated()
        let compressor = VideoCompressor()
        for clip in ["story.mp4", "cfr_audio.mp4"] {
            let source = try await compressor.probe(try Fixtures.clip(clip))
            let output = directory.appendingPathComponent("batch-" + clip)
            let plan = try await compressor.plan(source, config: checked.writing(to: output))
            #expect(plan.outputURL == output && plan.keptDuration == 1)
            let result = try await compressor.compress(plan)
            #expect(FileManager.default.fileExists(atPath: result.url.path))
        }
        config.crossfadeDuration = 9
        #expect(throws: ReelError.self) { _ = try config.validated() }
    }
}
