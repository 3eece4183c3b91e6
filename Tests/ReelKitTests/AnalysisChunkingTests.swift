import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelMedia
@testable import ReelSupport

/// The analysis decode split into keyframe-to-keyframe chunks on parallel decoders: every frame
/// decoded once, the same answers as one decoder, and a full-rate fallback where skipping B
/// frames would leave too few pictures.
@Suite(.timeLimit(.minutes(5))) struct AnalysisChunkingTests {
    /// Presentation times (stream time base) of the video's keyframes, from ffprobe.
    static func keyframeTimestamps(_ url: URL) throws -> Set<Int64> {
        let text = try Fixtures.run("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-skip_frame", "nokey",
            "-show_entries", "frame=pts", "-of", "csv=p=0", url.path,
        ])
        return Set(text.split(separator: "\n").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) })
    }

    @Test func chunksStartOnKeyframesAndFollowEachOther() throws {
        let url = try Fixtures.clip("story.mp4")
        let input = try InputFile(url: url)
        let videoIndex = try #require(input.bestVideoStream)
        let stream = try #require(input.layout.stream(videoIndex))
        let chunks = AnalysisChunkPlan.chunks(of: input, stream: stream, duration: 24, fileSize: input.fileSize, workers: 4)
        #expect(chunks.count >= 4, "\(chunks)")
        #expect(chunks.first?.start == nil && chunks.last?.end == nil)
        let keyframes = try Self.keyframeTimestamps(url)
        for (chunk, next) in zip(chunks, chunks.dropFirst()) {
            let boundary = try #require(chunk.end as Int64?)
            #expect(next.start == boundary)
            #expect(keyframes.contains(boundary), "chunk boundary \(boundary) is not a keyframe of \(keyframes.sorted())")
            #expect(chunk.estimatedBytes > 0)
        }
        #expect(chunks.map { $0.index } == Array(chunks.indices))
    }

    @Test func everyFrameIsDecodedExactlyOnceAcrossChunks() throws {
        let source = try MediaInfo.probe(try Fixtures.clip("story.mp4"))
        func read(workers: Int) throws -> (times: [MediaTime], samples: [MediaTime]) {
            let readout = try AnalysisReader.read(
                source: source, sampleRate: 6, width: 64, height: 36, skipping: .none, workers: workers,
                shouldCancel: { false }, progress: { _ in }, makeSink: { SampledFrameCollector() }, onAudio: { _ in })
            let joined = SampledFrameCollector.joined(readout.sinks, clock: SampleClock(start: readout.info.videoStart, rate: 6))
            return (readout.frameTimes, joined.features.map(\.time))
        }
        let single = try read(workers: 1)
        let chunked = try read(workers: 4)
        // 24 s at 30 fps; in order, none twice, none missing.
        #expect(chunked.times.count == 720)
        #expect(chunked.times == single.times)
        #expect(zip(chunked.times, chunked.times.dropFirst()).allSatisfy { $0 < $1 })
        // The same frames are sampled: the first decoded frame of each 1/6 s slot.
        #expect(chunked.samples == single.samples)
        #expect(chunked.samples.count == 144)
    }

    @Test func chunkedAnalysisMatchesOneDecoder() async throws {
        let asset = try AnalyzerTests.storyAsset()
        var options = VideoAnalyzer.Options()
        options.decodeWorkers = 1
        let single = try await VideoAnalyzer(options: options).analysis(of: asset)
        options.decodeWorkers = 4
        let chunked = try await VideoAnalyzer(options: options).analysis(of: asset)
        #expect(chunked.boundaries == single.boundaries)
        #expect(chunked.keyFrame == single.keyFrame)
        #expect(chunked.segments.map(\.timeRange) == single.segments.map(\.timeRange))
        for (a, b) in zip(chunked.segments, single.segments) {
            #expect(abs(a.level - b.level) <= 0.1, "\(a.timeRange): \(a.level) vs \(b.level)")
        }
    }

    @Test func skippingBFramesIsUsedOnlyWhereItIsExact() throws {
        func stream(_ name: String) throws -> ProbedStream {
            let input = try InputFile(url: try Fixtures.clip(name))
            let index = try #require(input.bestVideoStream)
            return try #require(input.layout.stream(index))
        }
        // x264: I and P frames never refer to B frames, checked on the moving middle part.
        let h264 = try stream("story.mp4")
        #expect(SkipCheck.startingLevel(for: h264, requested: .bidirectional) == .bidirectional)
        func pts(_ seconds: Double, in stream: ProbedStream) -> Int64 {
            Int64(seconds * Double(stream.timeBase.den) / Double(max(stream.timeBase.num, 1)))
        }
        #expect(try SkipCheck.bidirectionalSkipIsExact(h264, from: pts(6, in: h264), shouldStop: { false }))
        // x265: P frames refer to B frames; skipping them garbles the moving part.
        let hevc = try stream("story_hevc.mp4")
        #expect(SkipCheck.startingLevel(for: hevc, requested: .bidirectional) == .nonReference)
        #expect(try !SkipCheck.bidirectionalSkipIsExact(hevc, from: pts(6, in: hevc), shouldStop: { false }))
    }

    @Test func aFailedSkipCheckRedoesOnlyTheChunksThatSkippedBFrames() {
        let state = AnalysisJobState(chunkCount: 3, duration: 10, progress: { _ in })
        state.finish(chunk: 0, ChunkChanges(), skipping: .bidirectional)
        state.finish(chunk: 1, ChunkChanges(), skipping: .nonReference)
        #expect(!state.skippedBFramesWrongly(chunk: 0))
        #expect(state.skipping(startingAt: .bidirectional) == .bidirectional)
        state.rejectSkippingBFrames()
        #expect(state.skipping(startingAt: .bidirectional) == .nonReference)
        state.finish(chunk: 2, ChunkChanges(), skipping: .nonReference)
        #expect((0..<3).map { state.skippedBFramesWrongly(chunk: $0) } == [true, false, false])
        // A chunk that needed everything decoded raises the start for the rest, not the other way.
        state.settle(skipping: FrameSkipping.none)
        state.rejectSkippingBFrames()
        #expect(state.skipping(startingAt: .bidirectional) == FrameSkipping.none)
    }

    @Test func longBFrameRunsAreStillSampledAtTheFullRateWithAnExactCut() async throws {
        // Without B frames this clip shows 2 pictures a second; the analysis must notice and
        // decode the chunk again, and place the cut (on a B frame) exactly at frame 120.
        let asset = MediaIntelligenceVideoAsset(id: "b16", kind: .url(try Fixtures.clip("bframes16.mp4")))
        let analysis = try await VideoAnalyzer().analysis(of: asset)
        #expect(analysis.sampledFrames >= 44, "sampled \(analysis.sampledFrames) frames in 8 s")
        let cuts = analysis.boundaries.filter { $0.kind == .cut }.map(\.time.seconds)
        #expect(cuts.count == 1 && abs((cuts.first ?? 0) - 4) < 0.5 / 30, "cuts \(cuts)")
    }
}

/// Files that cannot seek exactly (MPEG-TS), carry no timestamps (raw H.264) or hide their cuts
/// between skipped frames (MPEG-4 Part 2 without scene-cut keyframes) give the same cuts as
/// the mp4 they were made from, measured from the video's start.
@Suite(.timeLimit(.minutes(5))) struct AnalysisContainerTests {
    static func cutsFromVideoStart(_ name: String) async throws -> (cuts: [Double], end: Double) {
        let asset = MediaIntelligenceVideoAsset(id: .init(name), kind: .url(try Fixtures.clip(name)))
        let analysis = try await VideoAnalyzer().analysis(of: asset)
        let origin = try #require(analysis.shots.first).start.seconds
        let cuts = analysis.boundaries.filter { $0.kind == .cut }.map { $0.time.seconds - origin }
        return (cuts, (analysis.segments.last?.timeRange.end.seconds ?? 0) - origin)
    }

    @Test(arguments: ["story.ts", "story.h264", "story_mpeg4.mp4", "story_hevc.mp4"])
    func cutsMatchTheIndexedOriginal(_ name: String) async throws {
        let result = try await Self.cutsFromVideoStart(name)
        #expect(result.cuts.count == AnalyzerTests.cuts.count, "cuts \(result.cuts)")
        for (found, expected) in zip(result.cuts, AnalyzerTests.cuts) {
            #expect(abs(found - expected) < 0.5 / 30, "cuts \(result.cuts)")
        }
        #expect(abs(result.end - 24) < 0.5 / 30, "levels end at \(result.end)")
    }

    /// recovery_points.mp4 flags intra-refresh recovery points as keyframes: a chunk starting on
    /// one decodes nothing until the refresh completes (about 1.5 s of holes per chunk before).
    /// Such a chunk starts decoding one chunk earlier, so samples cover the whole video, and a
    /// thumbnail there shows the frame on screen.
    @Test func chunksStartingOnRecoveryPointsDecodeFromEarlier() async throws {
        var options = VideoAnalyzer.Options()
        options.decodeWorkers = 2
        options.faces = nil
        let url = try Fixtures.clip("recovery_points.mp4")
        let analysis = try await VideoAnalyzer(options: options).analysis(of: MediaIntelligenceVideoAsset(url: url))
        let times = analysis.samples.map(\.time.seconds)
        #expect(times.count >= 70, "\(times.count) samples of 12 s at 6 per second")
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect((gaps.max() ?? 99) < 0.4, "largest hole between samples: \(gaps.max() ?? 0) s")
        let source = try MediaInfo.probe(url)
        let picture = try PictureReader.frame(of: source, at: 6.3, maximumSide: 160)
        let shown = try #require(picture.time).seconds
        #expect(shown <= 6.3 && shown > 6.25, "the frame on screen at 6.3 s starts at \(shown)")
    }
}
