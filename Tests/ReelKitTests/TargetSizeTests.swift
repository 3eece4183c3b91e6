import Foundation
import Synchronization
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// `targetFileSize`: two-pass encodes that never come out over the target, on several clips
/// and durations; lowered picture size for tight budgets; the preset's own result kept when it
/// fits; a target the audio alone exceeds refused before any work.
@Suite(.timeLimit(.minutes(5))) struct TargetSizeTests {
    static func size(_ url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    struct Case: Sendable, CustomStringConvertible {
        var clip: String
        var target: TargetFileSize
        var codec: VideoCodec = .h264
        var ranges: [(Double, Double)]? = nil
        var allAudio = false
        var description: String { "\(clip) \(target) \(codec)" }
    }

    @Test(arguments: [
        Case(clip: "cfr_audio.mp4", target: .bytes(150_000)),
        Case(clip: "cfr_audio.mp4", target: .bytes(150_000), codec: .hevc),
        Case(clip: "story.mp4", target: .percentOfSource(40), ranges: [(2, 9), (14, 22)]),
        Case(clip: "tracks.mp4", target: .bytes(250_000), allAudio: true),
        Case(clip: "preset_source.mp4", target: .bytes(400_000)),
    ])
    func neverOverTheTarget(_ test: Case) async throws {
        let (result, output, directory) = try await Harness.compress(test.clip) { config in
            config.targetFileSize = test.target
            config.videoCodec = test.codec
            if test.allAudio { config.audioTracks = .all }
            if let ranges = test.ranges {
                config.trim = .ranges(ranges.map {
                    TimeRange(start: MediaTime(seconds: $0.0, timescale: 1000), end: MediaTime(seconds: $0.1, timescale: 1000))
                })
            }
        }
        let source = try MediaInfo.probe(try Fixtures.clip(test.clip))
        let target = test.target.bytes(forSourceOf: source.fileSize)
        let bytes = Self.size(result.url)
        #expect(bytes <= target, "\(bytes) over \(target)")
        #expect(Double(bytes) >= 0.85 * Double(target), "\(bytes) far under \(target)")
        let report = try #require(result.analytics.targetSize)
        #expect(report.targetBytes == target && report.achievedBytes == bytes)
        #expect(report.encodes >= 2 && !report.keptPresetResult)
        // A short preset interval gives way to a long one: keyframes cost bits the size needs.
        #expect(result.analytics.encoding?.keyFrameInterval == 250)
        #expect(output.primaryVideo?.codecName == (test.codec == .hevc ? "hevc" : "h264"))
        if test.allAudio { #expect(output.audioStreams.count == 2) }
        // Nothing but the output: the two-pass statistics are gone.
        #expect(Fixtures.contents(of: directory) == [result.url.lastPathComponent])
    }

    @Test func aTightBudgetLowersThePictureAndSaysSo() async throws {
        let (result, output, _) = try await Harness.compress("preset_source.mp4") {
            $0.targetFileSize = .bytes(120_000)
            $0.audioBitrate = 0
        }
        #expect(Self.size(result.url) <= 120_000)
        let report = try #require(result.analytics.targetSize)
        let lowered = try #require(report.loweredDimensions)
        #expect(lowered.width < 2048 && lowered.width >= 320, "\(lowered)")
        #expect(output.primaryVideo?.video?.width == lowered.width)
    }

    @Test func aPresetThatFitsAnywayIsKept() async throws {
        let (result, _, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.videoBitrate = 300_000
            $0.bitrateMode = .cappedQuality
            $0.targetFileSize = .bytes(10_000_000)
        }
        let report = try #require(result.analytics.targetSize)
        #expect(report.keptPresetResult && report.encodes == 1)
        #expect(Self.size(result.url) < 300_000)
    }

    @Test func theStagesNameThePasses() async throws {
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.targetFileSize = .bytes(150_000)
        let stages = Mutex<[CompressionStage]>([])
        let fractions = Mutex<[Double]>([])
        _ = try await VideoCompressor().compressVideo(
            try Fixtures.clip("cfr_audio.mp4"), config: config,
            progressHandler: { value in fractions.withLock { $0.append(value) } },
            stageHandler: { stage in stages.withLock { $0.append(stage) } })
        let seen = stages.withLock { $0 }
        #expect(seen.first == .firstPass && seen.dropFirst().first == .secondPass(attempt: 1), "\(seen)")
        let values = fractions.withLock { $0 }
        #expect(values == values.sorted() && values.last == 1)
        var plain = Harness.fastConfig(in: directory)
        plain.outputURL = directory.appendingPathComponent("plain.mp4")
        stages.withLock { $0 = [] }
        _ = try await VideoCompressor().compressVideo(
            try Fixtures.clip("cfr_audio.mp4"), config: plain, stageHandler: { stage in stages.withLock { $0.append(stage) } })
        #expect(stages.withLock { $0 } == [.encoding])
    }

    @Test func aTargetTheAudioAloneExceedsIsRefusedBeforeEncoding() async throws {
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.targetFileSize = .bytes(20_000)
        let source = try Fixtures.clip("cfr_audio.mp4")
        let error = await Harness.reelError {
            _ = try await VideoCompressor().compressVideo(source, config: config)
        }
        guard case .invalidConfiguration(let reason, let file) = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("cannot be met") && reason.contains("audio"), "\(reason)")
        #expect(file?.lastPathComponent == "cfr_audio.mp4")
        #expect(Fixtures.contents(of: directory).isEmpty)
    }

    /// A clip without sound: the refusal names the container alone (it said "the audio and the
    /// container" of a file with no audio).
    @Test func aTargetTheContainerAloneExceedsNamesOnlyTheContainer() async throws {
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.targetFileSize = .bytes(1_000)
        let source = try Fixtures.clip("no_audio.mp4")
        let error = await Harness.reelError {
            _ = try await VideoCompressor().compressVideo(source, config: config)
        }
        guard case .invalidConfiguration(let reason, _) = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("cannot be met: the container alone takes"), "\(reason)")
        #expect(!reason.contains("audio"), "\(reason)")
        #expect(Fixtures.contents(of: directory).isEmpty)
    }

    /// story.mp4's first 6 s (black, then still bars) in 12 kB without sound leaves the picture
    /// about 1 kb/s, below the least x264 accepts for its second pass ("requested bitrate is
    /// too low"); that used to surface as "Generic error in an external library".
    @Test func aTargetBelowWhatTheEncoderCanMakeIsATypedError() async throws {
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.trimEndTime = MediaTime(value: 6, timescale: 1)
        config.audioBitrate = 0
        config.targetFileSize = .bytes(12_000)
        let error = await Harness.reelError {
            _ = try await VideoCompressor().compressVideo(try Fixtures.clip("story.mp4"), config: config)
        }
        guard case .invalidConfiguration(let reason, let file) = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("too small for this video"), "\(reason)")
        #expect(file?.lastPathComponent == "story.mp4")
        #expect(Fixtures.contents(of: directory).isEmpty)
    }

    @Test func budgetLowersSizeThenFrameRate() {
        // 1280x720 at 30 fps needs 1.38 Mb/s at 0.05 bits per pixel.
        #expect(TargetSizeBudget.lowered(bitrate: 2_000_000, width: 1280, height: 720, frameRate: 30, hevc: false) == (nil, nil))
        let smaller = TargetSizeBudget.lowered(bitrate: 345_600, width: 1280, height: 720, frameRate: 30, hevc: false)
        #expect(smaller.longerSide == 640 && smaller.frameRate == nil)
        let slower = TargetSizeBudget.lowered(bitrate: 50_000, width: 1280, height: 720, frameRate: 30, hevc: false)
        #expect(slower.longerSide == 320)
        #expect(slower.frameRate.map { $0 >= 12 && $0 < 30 } == true)
        #expect(TargetFileSize.percentOfSource(40).bytes(forSourceOf: 1_000) == 400)
    }

    @Test func retriesAimAtTheVideoPartAndFollowTheLine() {
        // One encode: 3.76 MB of which 1.99 MB audio and container, for 5 MB: the video part
        // must grow from 1.77 to 2.96 MB.
        let first = TargetSizeJob.nextBitrate(attempts: [(3_757_658, 115_748)], fixedBytes: 1_990_000, target: 5_000_000)
        #expect(abs(first - 115_748 * (4_950_000 - 1_990_000) / (3_757_658 - 1_990_000)) < 1)
        // Two encodes: the line through them, at 99% of the target.
        let second = TargetSizeJob.nextBitrate(attempts: [(3_757_658, 115_748), (4_273_564, 150_935)],
                                               fixedBytes: 1_990_000, target: 5_000_000)
        let slope = Double(4_273_564 - 3_757_658) / (150_935 - 115_748)
        #expect(abs(second - (150_935 + (4_950_000 - 4_273_564) / slope)) < 1)
        // Never more than twice, nor less than half, the last rate.
        #expect(TargetSizeJob.nextBitrate(attempts: [(2_000_100, 100_000)], fixedBytes: 2_000_000, target: 5_000_000) == 200_000)
    }

    @Test func invalidTargetsAreRejected() {
        var config = CompressionConfig()
        config.targetFileSize = .bytes(0)
        #expect(throws: ReelError.self) { try config.validate() }
        config.targetFileSize = .percentOfSource(120)
        #expect(throws: ReelError.self) { try config.validate() }
        config.targetFileSize = .bytes(1_000_000)
        config.streamCopy = true
        #expect(throws: ReelError.self) { try config.validate() }
    }
}
