import Foundation
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// Quality measured in-process (libavfilter's ssim/psnr), and `targetQuality`: per-shot rate
/// factors that reach the target.
@Suite(.timeLimit(.minutes(5))) struct TargetQualityTests {
    static func range(_ start: Double, _ end: Double) -> ClosedSourceRange {
        ClosedSourceRange(start: MediaTime(seconds: start, timescale: 1_000_000), end: MediaTime(seconds: end, timescale: 1_000_000),
                          needsSeek: start > 0, endsEarly: true)
    }

    /// The scrolling stretch of story.mp4 encoded at CRF 20 measures as the ffmpeg CLI's ssim
    /// filter does (about 0.98); a one-frame misalignment would measure far lower.
    @Test func theMeterPairsThePicturesOfTheEncodeAndTheSource() async throws {
        let (result, _, _) = try await Harness.compress("story.mp4") {
            $0.trimStartTime = MediaTime(seconds: 16.41667, timescale: 1_000_000)
            $0.trimEndTime = MediaTime(seconds: 18.41667, timescale: 1_000_000)
            $0.useExplicitBitrate = false
            $0.videoQuality = 20.0 / 24.0
            $0.audioBitrate = 0
            $0.encoderSpeed = .medium
        }
        let source = try MediaInfo.probe(try Fixtures.clip("story.mp4"))
        let values = try QualityMeter.measure(
            encoded: result.url, source: source, streamIndex: 0, range: Self.range(16.41667, 18.41667),
            referenceFilter: "format=yuv420p", metric: .ssim, shouldCancel: { false })
        #expect(values.count == 60, "\(values.count)")
        let mean = values.reduce(0, +) / Double(max(values.count, 1))
        #expect(mean > 0.97, "\(values.prefix(8))")
    }

    @Test func theFitFindsTheLargestRateFactorThatReachesTheTarget() {
        let points: [(crf: Double, value: Double)] = [(20, 0.99), (27, 0.97), (34, 0.93)]
        #expect(abs(RateFactorFit.rateFactor(for: 0.97, points: points, metric: .ssim) - 27) < 1e-9)
        let between = RateFactorFit.rateFactor(for: 0.98, points: points, metric: .ssim)
        #expect(between > 20 && between < 27)
        // Beyond the samples: the slope goes on, up to 51, and at most 4 below the lowest tried
        // (a dark, grainy shot that CRF 20 leaves under the target gains little from more).
        #expect(RateFactorFit.rateFactor(for: 0.999, points: points, metric: .ssim) == 16)
        // Out of reach and flat (BBB's dark titles): more bytes buy nothing, the highest
        // rate factor within 0.5 dB of the best is taken.
        let flat: [(crf: Double, value: Double)] = [(20, 0.9384), (27, 0.9341), (34, 0.923)]
        #expect(RateFactorFit.rateFactor(for: 0.98, points: flat, metric: .ssim) == 27)
        let easy: [(crf: Double, value: Double)] = [(20, 0.9998), (27, 0.9995), (34, 0.999)]
        #expect(RateFactorFit.rateFactor(for: 0.97, points: easy, metric: .ssim) == 51)
        let psnr: [(crf: Double, value: Double)] = [(20, 44), (27, 40), (34, 36)]
        #expect(abs(RateFactorFit.rateFactor(for: 38, points: psnr, metric: .psnr) - 30.5) < 1e-9)
    }

    @Test func segmentsFollowShotsButNoneIsTooShort() {
        let whole = [Self.range(0, 24)]
        let cut = TargetQualityJob.segments(of: whole, shotStarts: [1.0, 6, 10, 13.83, 21, 22.5])
        // 1.0 is too close to the start and 22.5 to the end; the rest start segments.
        #expect(cut.map { ($0.source.start.seconds * 100).rounded() / 100 } == [0, 6, 10, 13.83, 21])
        #expect(cut.map(\.outputStart) == cut.map { $0.source.start.seconds })
        let fixed = TargetQualityJob.segments(of: whole, shotStarts: [])
        #expect(fixed.count == 5 && fixed.allSatisfy { abs($0.duration - 4.8) < 1e-6 })
        // Ranges: output times run on across the join.
        let joined = TargetQualityJob.segments(of: [Self.range(2, 8), Self.range(12, 16)], shotStarts: [5, 14])
        #expect(joined.map(\.outputStart) == [0, 3, 6])
    }

    /// story.mp4 to SSIM 0.97 in 4.8 s pieces: the scrolling fractal (hard) gets a lower rate
    /// factor than the still bars; every piece starts a keyframe; the whole output's SSIM,
    /// measured by the ffmpeg CLI, is at least the target (less 0.002).
    @Test func eachPieceGetsTheRateItNeeds() async throws {
        let (result, _, _) = try await Harness.compress("story.mp4") {
            $0.targetQuality = TargetQuality(.ssim, 0.97)
            $0.fps = 30
        }
        let report = try #require(result.analytics.targetQuality)
        #expect(report.perSegment && report.segments.count == 5 && report.sampleEncodes == 15)
        let rates = report.segments.map(\.constantRateFactor)
        #expect(rates[3] < rates[0] - 5 && rates[3] < rates[2] - 5, "\(rates)")
        let keyframes = try Fixtures.ffprobe(result.url, ["-select_streams", "v:0", "-skip_frame", "nokey", "-show_entries", "frame=pts_time"])
        let times = (keyframes["frames"] as? [[String: Any]] ?? []).compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
        for segment in report.segments {
            #expect(times.contains { abs($0 - segment.start) < 0.02 }, "no keyframe at \(segment.start): \(times)")
        }
        let stats = result.url.deletingLastPathComponent().appendingPathComponent("ssim.log")
        _ = try Fixtures.run("/usr/bin/ffmpeg", [
            "-v", "error", "-i", result.url.path, "-i", try Fixtures.clip("story.mp4").path,
            "-lavfi", "[0:v][1:v]ssim=stats_file=\(stats.path)", "-f", "null", "-",
        ])
        let values = try String(contentsOf: stats, encoding: .utf8).split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("All:") }.flatMap { Double($0.dropFirst(4)) }
        }
        let all: Double? = values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        #expect((all ?? 0) >= 0.968, "SSIM \(String(describing: all))")
    }

    @Test func hevcGetsOneRateForTheWholeVideo() async throws {
        let (result, output, _) = try await Harness.compress("story.mp4") {
            $0.targetQuality = TargetQuality(.ssim, 0.97)
            $0.videoCodec = .hevc
            $0.trimEndTime = MediaTime(seconds: 10, timescale: 1)
        }
        let report = try #require(result.analytics.targetQuality)
        #expect(!report.perSegment)
        let rates = Set(report.segments.map(\.constantRateFactor))
        #expect(rates.count == 1)
        #expect(output.primaryVideo?.codecName == "hevc")
    }

    @Test func invalidTargetsAreRejected() {
        var config = CompressionConfig()
        config.targetQuality = TargetQuality(.ssim, 1.2)
        #expect(throws: ReelError.self) { try config.validate() }
        config.targetQuality = TargetQuality(.psnr, 5)
        #expect(throws: ReelError.self) { try config.validate() }
        config.targetQuality = TargetQuality(.ssim, 0.98)
        config.targetFileSize = .bytes(1_000_000)
        #expect(throws: ReelError.self) { try config.validate() }
    }
}
