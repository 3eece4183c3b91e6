internal import CFFmpeg
import Foundation
import ReelSupport

/// Facts about a source that analysis needs.
package struct AnalysisSourceInfo: Sendable {
    package var duration: Double
    package var frameRate: Double
    package var hasAudio: Bool
    /// The video stream's start, in seconds; analysis times are relative to the file's timeline.
    package var videoStart: Double
}

/// One piece of work of the analysis decode.
private enum AnalysisJob {
    /// Whether skipping B frames is exact for this stream (`SkipCheck`).
    case skipCheck
    /// The whole audio stream.
    case audio
    /// One chunk of the video.
    case chunk(AnalysisChunk)
}

/// What one analysis decode produced: per-frame change scores for the whole video, and the
/// picture sinks of its chunks in time order.
package struct AnalysisReadout<Sink: AnalysisPictureSink> {
    package var info: AnalysisSourceInfo
    /// Presentation time of every decoded frame.
    package var frameTimes: [MediaTime]
    /// Change of every decoded frame from the decoded frame before it (0 for the first).
    package var frameChanges: [Double]
    /// One sink per chunk, in time order; each saw the sampled pictures of its chunk.
    package var sinks: [Sink]
    /// The video stream as probed, to open again for a later decode.
    package var videoStream: ProbedStream
    /// Whether skipping B frames proved exact for this stream (a later decode may skip them too).
    package var skipsBFramesExactly: Bool
    /// Where the video's data ends: the latest end of a packet read (seconds, file clock).
    package var videoDataEnd = 0.0
}

/// One decode pass for analysis: cheap video decoding (no loop filter, B frames skipped),
/// pictures sampled at a fixed rate and shrunk with swscale, plus the audio as mono floats.
///
/// The video is split into keyframe-to-keyframe chunks decoded by one single-threaded decoder
/// per core: with B frames skipped, each remaining frame depends on the one before, so
/// FFmpeg's frame threads mostly wait on each other, while independent chunks keep every core
/// busy. Each frame is still decoded once. A chunk whose decode comes out too sparse or damaged
/// (long B-frame runs, P frames coded as B slices, P frames that refer to B frames) is decoded
/// again skipping less.
package enum AnalysisReader {
    /// Sample rate of the mono audio handed to `onAudio`.
    package static let audioSampleRate: Int32 = 16_000
    /// Side of the pixel squares averaged into each point of a frame's change grid.
    static let changePatch = 8

    /// Reads the whole file once. `makeSink` is called once per chunk before decoding starts;
    /// each sink then receives its chunk's pictures from one worker. `onAudio` receives the
    /// audio in order, from one worker, and `onAudioStart` then the time of its first sample
    /// (on the file's clock), when the stream gave one.
    package static func read<Sink: AnalysisPictureSink>(
        source: MediaInfo, sampleRate: Double, width: Int, height: Int, faces: FacePictureSampling? = nil,
        skipping: FrameSkipping = .bidirectional,
        workers requestedWorkers: Int? = nil,
        shouldCancel: @escaping @Sendable () -> Bool,
        progress: @escaping @Sendable (Double) -> Void,
        makeSink: () -> Sink,
        onAudio: @escaping @Sendable ([Float]) -> Void,
        onAudioStart: @escaping @Sendable (MediaTime?) -> Void = { _ in }
    ) throws(MediaFailure) -> AnalysisReadout<Sink> {
        guard let videoIndex = source.primaryVideoStreamIndex else { throw .noVideoStream }
        // Only packets are read here (to plan the chunks): no need for complete parameters.
        let input = try InputFile.reopen(source, keeping: [videoIndex], complete: false)
        // The facts of the job's one probe (or of this open, for a description without them).
        let layout = source.layout ?? input.layout
        guard let videoStream = layout.stream(videoIndex) else { throw .noVideoStream }
        let audioStream = source.primaryAudioStreamIndex.flatMap { layout.stream($0) }
        // The video's length from its own start: the stream's, or (WebM, MPEG-TS) the rest of the
        // container after the video starts; the container may start earlier (audio priming).
        let stated = videoStream.durationTimestamps.flatMap { layout.timestampsJump ? nil : Double($0) * av_q2d(videoStream.timeBase) }
            ?? max(layout.containerStart + layout.containerDuration - videoStream.startSeconds, 0)
        // A header spanning timestamp jumps (MPEG-TS) states more than the probe measured.
        let length = source.duration > 0 && stated > source.duration + 1 ? source.duration : stated
        let info = AnalysisSourceInfo(
            duration: length,
            frameRate: videoStream.framesPerSecond > 0 ? videoStream.framesPerSecond : 30,
            hasAudio: audioStream != nil, videoStart: videoStream.startSeconds)
        let workers = max(requestedWorkers ?? ProcessInfo.processInfo.activeProcessorCount, 1)
        let chunks = AnalysisChunkPlan.chunks(
            of: input, stream: videoStream, duration: info.duration, fileSize: source.fileSize, workers: workers)
        let timeBase = av_q2d(videoStream.timeBase)
        let chunkStarts = chunks.map { chunk in chunk.start.map { Double($0) * timeBase } ?? info.videoStart }
        let sinks = chunks.map { _ in makeSink() }
        let clock = SampleClock(start: info.videoStart, rate: max(sampleRate, 0.1))
        let state = AnalysisJobState(chunkCount: chunks.count, duration: info.duration, progress: progress)
        let stop: @Sendable () -> Bool = { state.failed || shouldCancel() }
        // The skip check and the audio go first (both quick, so they do not hold up the end),
        // then the chunks, largest first so the last ones to finish are short and no core idles
        // for long at the end.
        let order = chunks.sorted { $0.estimatedBytes > $1.estimatedBytes }
        let skipping = SkipCheck.startingLevel(for: videoStream, requested: skipping)
        let middleKeyframe = chunks.count > 1 ? chunks[chunks.count / 2].start : nil
        let leading: [AnalysisJob] = (skipping == .bidirectional ? [.skipCheck] : []) + (audioStream != nil ? [.audio] : [])
        // One decoder with FFmpeg's own threads when there is only one chunk.
        let threads: Int32 = chunks.count == 1 ? 0 : 1
        func run(_ jobs: [AnalysisJob]) {
            state.resetJobs()
            DispatchQueue.concurrentPerform(iterations: min(workers, jobs.count)) { _ in
                var worker: AnalysisVideoWorker?
                while let next = state.nextJob(below: jobs.count) {
                    do throws(MediaFailure) {
                        switch jobs[next] {
                        case .skipCheck:
                            // The check only saves work: if it cannot run, skip less.
                            let exact: Bool
                            do throws(MediaFailure) {
                                exact = try SkipCheck.bidirectionalSkipIsExact(videoStream, from: middleKeyframe, shouldStop: stop)
                            } catch .cancelled {
                                throw .cancelled
                            } catch {
                                exact = false
                            }
                            if !exact { state.rejectSkippingBFrames() }
                        case .audio:
                            if let audioStream {
                                onAudioStart(try MonoAudioDecoder.decodeAll(audioStream, shouldStop: stop, into: onAudio))
                            }
                        case .chunk(let chunk):
                            let reader: AnalysisVideoWorker
                            if let worker {
                                reader = worker
                            } else {
                                reader = try AnalysisVideoWorker(
                                    stream: videoStream, threads: threads, width: width, height: height, faces: faces)
                                worker = reader
                            }
                            let seconds = (chunk.end.map { Double($0) * timeBase } ?? info.videoStart + info.duration) - chunkStarts[chunk.index]
                            let (changes, level) = try decode(
                                chunk, seconds: seconds, requested: skipping, reader: reader, sink: sinks[chunk.index]
                            ) { time in
                                state.advance(chunk: chunk.index, covered: time - chunkStarts[chunk.index])
                            }
                            state.finish(chunk: chunk.index, changes, skipping: level)
                        }
                    } catch {
                        state.fail(error)
                    }
                }
            }
        }
        @Sendable func decode(
            _ chunk: AnalysisChunk, seconds: Double, requested: FrameSkipping, reader: AnalysisVideoWorker, sink: Sink,
            advanced: (Double) -> Void
        ) throws(MediaFailure) -> (ChunkChanges, FrameSkipping) {
            // A stream's structure is the same throughout: once a chunk needed a fuller decode,
            // the chunks after it start there.
            var level = state.skipping(startingAt: requested)
            var changes = try reader.read(chunk, skipping: level, clock: clock, sink: sink, shouldStop: stop, advanced: advanced)
            while !changes.isSufficient(forSeconds: seconds, sampleRate: sampleRate), let fuller = level.fuller {
                sink.reset()
                level = changes.hasUntimedFrames ? .none : fuller
                changes = try reader.read(chunk, skipping: level, clock: clock, sink: sink, shouldStop: stop, advanced: advanced)
            }
            // Still damaged or sparse with nothing skipped: the keyframe it starts on cannot be
            // decoded from (phone files flag recovery points as keyframes). Start earlier:
            // one chunk back, then two, then the file's start.
            var earlier = chunk
            for back in [1, 2, chunk.index] where back <= chunk.index && back > 0 {
                guard !changes.isSufficient(forSeconds: seconds, sampleRate: sampleRate) else { break }
                let leadIn: AnalysisChunk.LeadIn = chunks[chunk.index - back].start.map { .keyframe($0) } ?? .fileStart
                guard leadIn != earlier.leadIn else { continue }
                earlier.leadIn = leadIn
                sink.reset()
                changes = try reader.read(earlier, skipping: level, clock: clock, sink: sink, shouldStop: stop, advanced: advanced)
            }
            state.settle(skipping: level)
            return (changes, level)
        }
        run(leading + order.map { .chunk($0) })
        // Chunks that started skipping B frames before the check found that unsafe: again.
        let redo = order.filter { state.skippedBFramesWrongly(chunk: $0.index) }
        if !redo.isEmpty, state.firstError == nil {
            for chunk in redo { sinks[chunk.index].reset() }
            run(redo.map { .chunk($0) })
        }
        if let error = state.firstError { throw error }
        if shouldCancel() { throw .cancelled }
        var readout = AnalysisReadout(
            info: info, frameTimes: [], frameChanges: [], sinks: sinks, videoStream: videoStream,
            skipsBFramesExactly: skipping == .bidirectional && !state.bFramesWereRejected)
        var previousGrid: LumaGrid?
        for var changes in state.results() {
            // A chunk's first frame is compared with the last frame of the chunk before it.
            if let first = changes.firstGrid, let previous = previousGrid, !changes.changes.isEmpty {
                changes.changes[0] = first.difference(to: previous)
            }
            readout.frameTimes += changes.times
            readout.videoDataEnd = max(readout.videoDataEnd, changes.packetEnd)
            readout.frameChanges += changes.changes
            previousGrid = changes.lastGrid ?? previousGrid
        }
        return readout
    }

    /// The change score of every frame inside each window (seconds, in time order) at full rate,
    /// for placing cuts exactly where the main pass skipped frames, in one decode from the
    /// keyframe before the first window. Between windows only the frames the next window
    /// depends on are decoded (`between`: non-reference frames skipped, or every B frame where
    /// that is exact).
    package static func frameChanges(
        of stream: ProbedStream, windows: [ClosedRange<Double>], skippingBetween between: FrameSkipping = .nonReference,
        shouldCancel: () -> Bool = { false }
    ) throws(MediaFailure) -> [[(time: MediaTime, change: Double)]] {
        var found = windows.map { _ in [(time: MediaTime, change: Double)]() }
        guard let first = windows.first, let last = windows.last else { return found }
        let input = try InputFile.reopen(stream)
        let video = try Decoder(input: input, streamIndex: stream.index, cheap: true, threads: 1)
        try input.seek(toSeconds: max(first.lowerBound, 0))
        var previousGrid: LumaGrid?
        let margin = 1e-3
        func isInside(_ seconds: Double, _ window: ClosedRange<Double>) -> Bool {
            seconds >= window.lowerBound - margin && seconds <= window.upperBound + margin
        }
        try video.forEachFrame(in: input, shouldCancel: shouldCancel, beforeSending: { packet in
            let inside = packet.presentationTimestamp.map { pts in
                windows.contains { isInside(video.time(ofTimestamp: pts).seconds, $0) }
            } ?? true
            video.setSkipFrames(inside ? AVDISCARD_DEFAULT : between.discard)
        }) { frame throws(MediaFailure) in
            guard let time = video.time(of: frame), let grid = LumaGrid(frame: frame.pointer, patch: AnalysisReader.changePatch) else { return true }
            if time.seconds > last.upperBound + margin { return false }
            // Windows may overlap: a frame belongs to every window it falls in.
            let change = previousGrid.map { grid.difference(to: $0) } ?? 0
            for index in windows.indices where isInside(time.seconds, windows[index]) { found[index].append((time, change)) }
            previousGrid = grid
            return true
        }
        return found
    }
}
