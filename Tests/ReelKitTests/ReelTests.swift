import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// Range lists and highlight reels read back from real files.
@Suite(.timeLimit(.minutes(5))) struct ReelTests {
    static func range(_ start: Double, _ end: Double) -> TimeRange {
        TimeRange(start: MediaTime(seconds: start, timescale: 1000), end: MediaTime(seconds: end, timescale: 1000))
    }

    @Test func reelLastsTheSumOfItsRangesInTheGivenOrder() async throws {
        let ranges = [Self.range(2.0, 2.8), Self.range(0.5, 1.0), Self.range(1.2, 1.5)]
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") { $0.trim = .ranges(ranges) }
        let video = try #require(output.primaryVideo)
        #expect(abs((video.duration ?? 0) - 1.6) <= 3.0 / 30 + 1e-3)
        #expect(abs((output.primaryAudio?.duration ?? 0) - 1.6) < 0.05)
        #expect(result.analytics.keptRanges == ranges)
        // testsrc2 shows its clock: the first output frame is the source frame at 2.0 s, not 0.5 s.
        let source = try FrameProbe.frame(of: try Fixtures.clip("cfr_audio.mp4"), at: 2.0)
        let first = try FrameProbe.firstFrame(of: result.url).blocks
        let early = try FrameProbe.frame(of: try Fixtures.clip("cfr_audio.mp4"), at: 0.5)
        func distance(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map { abs($0 - $1) }.reduce(0, +) }
        #expect(distance(first, source) < distance(first, early))
    }

    @Test func audioAndVideoStayAlignedAfterManyJoins() async throws {
        // Flash and beep together at k + 0.5 s; keep [k + 0.2, k + 1.0) for 22 seconds: 21 joins.
        let ranges = (0..<22).map { Self.range(Double($0) + 0.2, Double($0) + 1.0) }
        let (result, output, _) = try await Harness.compress("sync.mp4") { $0.trim = .ranges(ranges) }
        #expect(abs((output.primaryVideo?.duration ?? 0) - 22 * 0.8) <= 22.0 / 30)
        let events = try SyncProbe.events(in: result.url)
        #expect(events.flashes.count == 22, "flashes \(events.flashes)")
        #expect(events.beeps.count == 22, "beeps \(events.beeps)")
        for (index, (flash, beep)) in zip(events.flashes, events.beeps).enumerated() {
            let expected = Double(index) * 0.8 + 0.3
            #expect(abs(flash - expected) < 0.5 / 30, "flash \(index) at \(flash), expected \(expected)")
            #expect(abs(beep - flash) < 1.0 / 30, "join \(index): beep at \(beep), flash at \(flash)")
        }
    }

    @Test func highlightReelHonoursTheBudgetAndTheMinimumLevel() async throws {
        let url = try Fixtures.clip("story.mp4")
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: url))
        let options = HighlightReelOptions(maximumDuration: 6, minimumLevel: 5, analysis: analysis)
        let (result, output, _) = try await Harness.compress("story.mp4") { $0.trim = .highlights(options) }
        let kept = result.analytics.keptRanges
        let total = kept.map(\.duration.seconds).reduce(0, +)
        #expect(total <= 6 + 1e-3 && total >= 4)
        #expect((output.primaryVideo?.duration ?? 0) <= 6 + 1.0 / 30)
        for range in kept {
            #expect(range.duration.seconds >= 1.5 - 1e-3)
            // Every segment a kept range takes from is at least the minimum level, except where
            // an edge was snapped or widened by at most the snap distance.
            let core = TimeRange(start: range.start + MediaTime(value: 1, timescale: 2), end: range.end - MediaTime(value: 1, timescale: 2))
            let touched = analysis.segments.filter { $0.timeRange.start < core.end && core.start < $0.timeRange.end }
            #expect(touched.allSatisfy { $0.level >= 5 }, "\(range): \(touched.map(\.level))")
        }
        for (a, b) in zip(kept, kept.dropFirst()) { #expect(a.end < b.start) }
        #expect(kept.allSatisfy { r in [(6.0, 10.0), (15.0, 21.0)].contains { r.start.seconds >= $0.0 - 0.6 && r.end.seconds <= $0.1 + 0.6 } })
    }

    @Test func highlightReelRunsTheAnalyzerWhenNoAnalysisIsGiven() async throws {
        let log = ProgressLog()
        let (result, _, _) = try await Harness.compress("story.mp4", progress: log) {
            $0.trim = .highlights(HighlightReelOptions())
        }
        let kept = result.analytics.keptRanges
        #expect(!kept.isEmpty)
        #expect(kept.contains { $0.start.seconds <= 6.1 && $0.end.seconds >= 9.9 })
        #expect(log.all.last == 1 && zip(log.all, log.all.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// A picture that never changes has no highlight at the default level: the error names the
    /// file once and says what to change, and nothing is written.
    @Test func aVideoWhereNothingStandsOutSaysSoNamingTheFile() async throws {
        let directory = try Fixtures.scratchDirectory()
        let flat = directory.appendingPathComponent("flat.mp4")
        try await offPool {
            try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=320x240:r=25:d=6",
                                                 "-c:v", "libx264", "-preset", "ultrafast", flat.path])
        }
        var config = Harness.fastConfig(in: directory)
        config.trim = .highlights(HighlightReelOptions())
        let error = await Harness.reelError { _ = try await VideoCompressor().compressVideo(flat, config: config) }
        guard case .nothingToKeep(let file, let reason)? = error else {
            Issue.record("expected nothingToKeep, got \(String(describing: error))")
            return
        }
        #expect(file.lastPathComponent == "flat.mp4" && !reason.contains("flat.mp4"), "\(reason)")
        #expect(reason.hasPrefix("no highlights at level 6.0 or above") && reason.contains("--max-duration"), "\(reason)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["flat.mp4"], "\(left)")
    }
}

extension ReelTests {
    @Test func crossfadesOverlapTheJoinedRanges() async throws {
        let source = try Fixtures.clip("cfr_audio.mp4")
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.trim = .ranges([Self.range(0, 1), Self.range(2, 3)])
            $0.crossfadeDuration = 0.3
        }
        // Two 1 s ranges overlapping by 0.3 s.
        #expect(abs((output.primaryVideo?.duration ?? 0) - 1.7) < 1.5 / 30)
        #expect(abs((output.primaryAudio?.duration ?? 0) - 1.7) < 0.05)
        // Halfway through the crossfade (0.85 s) the picture is half of each side.
        let mixed = try FrameProbe.frame(of: result.url, at: 0.85)
        let before = try FrameProbe.frame(of: source, at: 0.85), after = try FrameProbe.frame(of: source, at: 2.15)
        let half = zip(before, after).map { ($0 + $1) / 2 }
        func distance(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Float(a.count) }
        #expect(distance(mixed, half) < 0.03)
        #expect(distance(mixed, half) < distance(mixed, before) / 2)
        #expect(distance(mixed, half) < distance(mixed, after) / 2)
        // Outside the crossfade the frames are the sources' own.
        #expect(distance(try FrameProbe.frame(of: result.url, at: 0.3), try FrameProbe.frame(of: source, at: 0.3)) < 0.02)
        #expect(distance(try FrameProbe.frame(of: result.url, at: 1.4), try FrameProbe.frame(of: source, at: 2.7)) < 0.02)
    }

    /// A planner's ranges with a crossfade and the joins that cut all the same.
    struct JoinPlanner: TrimPlanner, Equatable {
        var kept: [TimeRange]
        var crossfade: Double
        var cutJoins: Set<Int>
        var progressShare: Double { 0 }
        var maximumDuration: Double? { nil }
        func ranges(of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void) async throws(ReelError) -> [TimeRange] {
            kept
        }
        func plan(of source: MediaInfo, progressHandler: @escaping @Sendable (Double) -> Void) async throws(ReelError) -> PlannedTrim {
            PlannedTrim(ranges: kept, joinCrossfade: crossfade, cutJoins: cutJoins)
        }
    }

    /// A reel dissolves only the joins that would be jump cuts: here the first join dissolves
    /// and the second (numbered 1) cuts, so the output loses one crossfade, the first join is a
    /// mix of both sides, and the second goes from one range's last picture to the next's first.
    @Test func onlyTheJoinsAskedForDissolve() async throws {
        let source = try Fixtures.clip("cfr_audio.mp4")
        let kept = [Self.range(0, 0.9), Self.range(1, 1.9), Self.range(2, 2.9)]
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.trim = .planned(JoinPlanner(kept: kept, crossfade: 0.3, cutJoins: [1]))
        }
        #expect(abs((output.primaryVideo?.duration ?? 0) - 2.4) < 1.5 / 30, "\(output.primaryVideo?.duration ?? 0)")
        #expect(abs((output.primaryAudio?.duration ?? 0) - 2.4) < 0.05)
        func distance(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Float(a.count) }
        let mixed = try FrameProbe.frame(of: result.url, at: 0.75)
        let half = zip(try FrameProbe.frame(of: source, at: 0.75), try FrameProbe.frame(of: source, at: 1.15)).map { ($0 + $1) / 2 }
        #expect(distance(mixed, half) < 0.03, "the first join dissolves")
        // The second range runs 0.6-1.5 s on the output; the third starts at 1.5 s with a cut.
        #expect(distance(try FrameProbe.frame(of: result.url, at: 1.45), try FrameProbe.frame(of: source, at: 1.85)) < 0.02)
        #expect(distance(try FrameProbe.frame(of: result.url, at: 1.55), try FrameProbe.frame(of: source, at: 2.05)) < 0.02,
                "the second join cuts")
    }
}

