import Foundation
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// Chunk plans: where the cuts go (tables of times), and chunked encodes through the library
/// read back with ReelKit's own demuxer and compared with a single encode.
@Suite(.timeLimit(.minutes(5))) struct ChunkPlanTests {
    static func pictures(every step: Double, until end: Double) -> [MediaTime] {
        let rate = Int64((1 / step).rounded())
        return (0..<Int64(end * Double(rate))).map { MediaTime(value: $0, timescale: Int32(rate)) }
    }

    @Test func cutsTakeTheNearestShotThenAKeyframeThenAPicture() {
        let cuts = ChunkCuts(pictures: Self.pictures(every: 1.0 / 30, until: 100), shots: [9, 14, 31, 75],
                             keyframes: [20, 40, 60, 80].map { MediaTime(value: $0, timescale: 1) },
                             end: MediaTime(value: 100, timescale: 1), length: 20).cuts()
        #expect(cuts.map(\.time.seconds) == [14, 31, 60, 75])
        #expect(cuts.map(\.atShot) == [true, true, false, true])
    }

    @Test func aShortRemainderJoinsTheLastChunk() {
        let cuts = ChunkCuts(pictures: Self.pictures(every: 1.0 / 30, until: 29.9), shots: [15], keyframes: [],
                             end: MediaTime(value: 299, timescale: 10), length: 20).cuts()
        #expect(cuts.isEmpty)
    }

    @Test func withoutShotsOrKeyframesTheCutTakesTheNearestPicture() {
        // Pictures at 24 fps; 10.01 s is nearest the picture at 10.0 s.
        let cuts = ChunkCuts(pictures: Self.pictures(every: 1.0 / 24, until: 30), shots: [], keyframes: [],
                             end: MediaTime(value: 30, timescale: 1), length: 10.01).cuts()
        #expect(cuts.map(\.time) == [MediaTime(value: 10, timescale: 1), MediaTime(value: 20, timescale: 1)])
        #expect(cuts.allSatisfy { !$0.atShot })
    }

    @Test func anEncoderWithAKeyframeGridIsCutOnTheGridNotAtShots() {
        // 24 fps, a keyframe every 60 pictures (2.5 s): the cut near 14 s takes 15 s (picture 360),
        // not the shot at 14.2 s; the grid's 30 s beats the shot at 31.4 s, 45 s the one at 46.3 s.
        let cuts = ChunkCuts(pictures: Self.pictures(every: 1.0 / 24, until: 55), shots: [14.2, 31.4, 46.3],
                             keyframes: [], end: MediaTime(value: 55, timescale: 1), length: 14, keyframeGrid: 60).cuts()
        #expect(cuts.map(\.time.seconds) == [15, 30, 45])
        #expect(cuts.allSatisfy { !$0.atShot })
        // A grid longer than the chunks asked for: cut at every grid point that leaves room.
        let sparse = ChunkCuts(pictures: Self.pictures(every: 1.0 / 24, until: 55), shots: [], keyframes: [],
                               end: MediaTime(value: 55, timescale: 1), length: 5, keyframeGrid: 240).cuts()
        #expect(sparse.map(\.time.seconds) == [10, 20, 30, 40, 50])
    }

    /// Plans `clip`, encodes every job through the library, assembles, and returns the plan,
    /// the report and a single encode of the same settings.
    static func chunkedAndSingle(
        _ clip: String, length: Double, _ configure: (inout CompressionConfig) -> Void
    ) async throws -> (plan: ChunkPlan, report: AssemblyReport, single: URL) {
        let source = try Fixtures.clip(clip)
        let directory = try Fixtures.scratchDirectory("chunks-\(clip)")
        var config = Harness.fastConfig(in: directory)
        configure(&config)
        let plan = try await ChunkPlan.make(for: source, config: config, chunkLength: length)
        let chunks = directory.appendingPathComponent("chunks")
        let jobs: [ChunkJob] = plan.chunks.map { .video($0.index) } + (plan.audioIndex == nil ? [] : [.audio])
        for job in jobs.reversed() { _ = try await plan.encodeChunk(job, into: chunks) }
        let report = try await plan.assemble(chunks: chunks, to: directory.appendingPathComponent("joined.mp4"))
        config.outputURL = directory.appendingPathComponent("single.mp4")
        let single = try await VideoCompressor().compressVideo(source, config: config)
        return (plan, report, single.url)
    }

    static func timeline(_ url: URL) throws -> FrameTimeline {
        let info = try MediaInfo.probe(url)
        return try FrameTimeline.read(info, streamIndex: try #require(info.primaryVideoStreamIndex), shouldCancel: { false })
    }

    @Test func aReducedFrameRateJoinsIntoTheSingleEncodesPictures() async throws {
        let (plan, report, single) = try await Self.chunkedAndSingle("fast60.mp4", length: 1) { $0.fps = 30 }
        #expect(plan.chunks.count == 4)
        #expect(plan.settings.reducedFrameRate == 30)
        #expect(plan.frameCount == 120)
        let joined = try Self.timeline(report.output)
        #expect(joined.frameTimes.count == 120)
        #expect(joined.frameTimes == (try Self.timeline(single)).frameTimes)
        #expect(Set(plan.chunks.map(\.outputStart)).isSubset(of: Set(joined.keyframeTimes)))
    }

    /// `edgeFadeDuration` on a chunked encode (it was refused): the first chunk fades in from
    /// black, the last out to black, the chunks between are untouched, and the joined file has
    /// the single encode's pictures; a fade longer than an edge chunk is refused up front.
    @Test func fadesAtTheEdgesJoinIntoTheSingleEncodesPictures() async throws {
        let (plan, report, single) = try await Self.chunkedAndSingle("cfr_audio.mp4", length: 1) { $0.edgeFadeDuration = 0.5 }
        #expect(plan.chunks.count == 3)
        func mean(_ blocks: [Float]) -> Float { blocks.reduce(0, +) / Float(max(blocks.count, 1)) }
        func distance(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Float(max(a.count, 1)) }
        let source = try Fixtures.clip("cfr_audio.mp4")
        #expect(mean(try FrameProbe.frame(of: report.output, at: 0)) < 0.1, "black at the start")
        #expect(mean(try FrameProbe.frame(of: report.output, at: 2.96)) < 0.12, "black at the end")
        #expect(distance(try FrameProbe.frame(of: report.output, at: 1.5), try FrameProbe.frame(of: source, at: 1.5)) < 0.02,
                "the middle chunk is not faded")
        for time in [0.05, 0.25, 0.45, 1.0, 2.0, 2.6, 2.8, 2.95] {
            #expect(distance(try FrameProbe.frame(of: report.output, at: time), try FrameProbe.frame(of: single, at: time)) < 0.02,
                    "at \(time) s")
        }
        let error = await Harness.reelError {
            var config = Harness.fastConfig(in: try Fixtures.scratchDirectory("long-fade"))
            config.edgeFadeDuration = 1.5
            _ = try await ChunkPlan.make(for: source, config: config, chunkLength: 1)
        }
        guard case .invalidConfiguration(let message, _) = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(message.contains("does not fit in the first or last chunk"), "\(message)")
    }

    /// Files whose timing is not plain: AVI without presentation times and packed B frames
    /// (the plan decodes them for the times), MPEG-TS whose video starts after the container
    /// (an edit list rounds the start), phone-style recovery points flagged as keyframes (a
    /// chunk must start decoding earlier), variable frame rate reduced to 30 fps.
    @Test(arguments: [("packed_bframes.avi", 1.0), ("story.ts", 6.0), ("recovery_points.mp4", 2.0), ("vfr_audio.mp4", 1.0)])
    func awkwardTimingJoinsIntoTheSingleEncodesPictures(clip: String, length: Double) async throws {
        let (plan, report, single) = try await Self.chunkedAndSingle(clip, length: length) { $0.fps = 30 }
        #expect(plan.chunks.count >= 3)
        let joined = try Self.timeline(report.output)
        let reference = try Self.timeline(single)
        #expect(joined.frameTimes.count == plan.frameCount)
        #expect(joined.frameTimes == reference.frameTimes)
    }

    @Test func timestampsThatJumpAreRefused() async throws {
        let error = await Harness.reelError {
            _ = try await ChunkPlan.make(for: try Fixtures.clip("discontinuous.ts"), config: CompressionConfig(), chunkLength: 1)
        }
        guard case .invalidConfiguration(let reason, _) = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("timestamps jump"))
    }

    @Test func thePlanFindsTheSameShotsWithoutTheFacePass() async throws {
        // The plan's own analyzer skips the face pass; the cuts must not move for it.
        let source = try Fixtures.clip("story.mp4")
        let directory = try Fixtures.scratchDirectory("plan-shots")
        let config = Harness.fastConfig(in: directory)
        let withFaces = VideoAnalyzer()
        let analysis = try await withFaces.analysis(of: MediaIntelligenceVideoAsset(url: source))
        let given = try await ChunkPlan.make(for: source, config: config, chunkLength: 2, analysis: analysis)
        let found = try await ChunkPlan.make(for: source, config: config, chunkLength: 2)
        #expect(!given.shotStarts.isEmpty)
        #expect(found.shotStarts == given.shotStarts)
        #expect(found.chunks.map(\.start) == given.chunks.map(\.start))
        // An analyzer passed in is the one used.
        let mine = VideoAnalyzer()
        _ = try await ChunkPlan.make(for: source, config: config, chunkLength: 2, analyzer: mine)
        #expect(mine.decodePassCount == 1)
    }

    @Test func everyKeptAudioTrackIsCarried() async throws {
        let (_, report, single) = try await Self.chunkedAndSingle("tracks.mp4", length: 2) { $0.audioTracks = .all }
        let joined = try MediaInfo.probe(report.output)
        let reference = try MediaInfo.probe(single)
        #expect(joined.audioStreams.count == 2)
        #expect(joined.audioStreams.map(\.audio?.channels) == reference.audioStreams.map(\.audio?.channels))
        #expect(joined.audioStreams.map(\.language) == ["eng", "fra"])
        #expect(abs(joined.duration - reference.duration) < 0.05)
    }

    /// The subtitle packets (start, duration, size) and the text of `url`'s subtitles.
    static func subtitles(_ url: URL) throws -> (packets: [String], text: String) {
        let packets = try Fixtures.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "s", "-show_entries",
                                                            "packet=pts,duration,size", "-of", "csv=p=0", url.path])
        let text = try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:s", "-f", "srt", "-"])
        return (packets.split(separator: "\n").map(String.init), text)
    }

    @Test(arguments: [true, false])
    func textSubtitlesAreCarriedByTheAudioJob(withSound: Bool) async throws {
        let (plan, report, single) = try await Self.chunkedAndSingle("subtitles.mkv", length: 2) {
            if !withSound { $0.audioBitrate = 0 }
        }
        // Without sound the audio job still exists, for the subtitles alone.
        #expect(plan.audioIndex == plan.chunks.count)
        let joined = try MediaInfo.probe(report.output)
        #expect(joined.audioStreams.count == (withSound ? 1 : 0))
        let chunked = try Self.subtitles(report.output), reference = try Self.subtitles(single)
        #expect(chunked.packets.count == 6, "\(chunked.packets)")
        #expect(chunked.packets == reference.packets)
        #expect(chunked.text == reference.text)
        #expect(chunked.text.contains("-->"))
    }

    @Test func aTargetSizeIsSharedByComplexityAndKept() async throws {
        let target: Int64 = 350_000
        let (plan, report, _) = try await Self.chunkedAndSingle("story.mp4", length: 6) {
            $0.targetFileSize = .bytes(target)
            $0.contentAwareOptimization = true
        }
        let rates = plan.chunks.compactMap(\.videoBitrate)
        #expect(rates.count == plan.chunks.count)
        // story.mp4's action passages cost far more than its black and still ones.
        #expect(Double(rates.max() ?? 0) > 1.3 * Double(rates.min() ?? 1), "rates \(rates)")
        #expect(report.bytes <= target)
        #expect(report.bytes > target * 85 / 100)
        #expect((report.targetMiss ?? 1) <= 0)
    }
}
