import Foundation
import ReelAnalysis
import ReelCompression
import ReelFrameReduction
import ReelMedia
import ReelSupport

extension ChunkPlan {
    /// The analyzer a plan finds its shots with: the defaults without the face pass, which
    /// takes about a quarter of an analysis and does not move a cut.
    private static let shotFinder: VideoAnalyzer = {
        var options = VideoAnalyzer.Options()
        options.faces = nil
        return VideoAnalyzer(options: options)
    }()

    /// Plans the encode of `url` with `config` in chunks of about `chunkLength` seconds, cut
    /// at the shots of `analysis` (analyzed now when `nil`, by `analyzer`, else by one without
    /// the face pass: the cuts do not use it). Only a whole source or one trim
    /// (`trimStartTime`/`trimEndTime`) can be chunked; frames are reduced evenly.
    public static func make(
        for url: URL, config: CompressionConfig, chunkLength: Double = 60, analysis: VideoAnalysis? = nil,
        analyzer: VideoAnalyzer? = nil, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> ChunkPlan {
        let checked: ValidatedConfig
        do throws(ReelError) {
            checked = try config.validated()
        } catch {
            throw error.naming(source: url)
        }
        return try await make(for: url, config: checked, chunkLength: chunkLength, analysis: analysis, analyzer: analyzer,
                              progressHandler: progressHandler)
    }

    /// `make(for:config:chunkLength:analysis:analyzer:progressHandler:)` with settings checked
    /// once already (`CompressionConfig.validated()`).
    public static func make(
        for url: URL, config checked: ValidatedConfig, chunkLength: Double = 60, analysis: VideoAnalysis? = nil,
        analyzer: VideoAnalyzer? = nil, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> ChunkPlan {
        let config = checked.config
        guard chunkLength >= 1 else {
            throw .invalidConfiguration("a chunk lasts at least 1 s, got \(chunkLength) s", file: url)
        }
        guard config.trim == .whole, !config.streamCopy else {
            throw .invalidConfiguration("a chunked encode keeps the whole video or one trim (start/end), re-encoded; "
                + "lists of ranges, highlight reels and lossless copies cannot be chunked", file: url)
        }
        guard !config.fileType.isAnimatedImage else {
            throw .invalidConfiguration("a \(config.fileType.rawValue.uppercased()) cannot be chunked: its pieces cannot be "
                + "joined; compress it in one job", file: url)
        }
        let progress = ProgressReporter(progressHandler)
        let source = try await VideoCompressor().probe(url)
        var base = config
        base.outputURL = nil
        base.outputDirectory = nil
        if let quality = base.targetQuality { base.targetQuality = TargetQuality(quality.metric, quality.value) }
        let duration = MediaTime(seconds: source.duration, timescale: 1_000_000)
        let range = TimeRange(start: config.trimStartTime ?? .zero, end: min(config.trimEndTime ?? duration, duration))
        guard !range.isEmpty, range.start >= .zero else {
            throw .invalidTrimTimes(start: config.trimStartTime?.seconds, end: config.trimEndTime?.seconds,
                                    duration: source.duration, file: url)
        }
        let flag = CancellationFlag()
        let settled = base
        let (settings, timeline, headHash) = try await BlockingWork.run(flag: flag) {
            () throws(ReelError) -> (ChunkSettings, FrameTimeline, String) in
            let settings = try ChunkSettings.resolve(settled, for: source, keptDuration: range.duration.seconds,
                                                     shouldCancel: { flag.isRaised })
            guard let video = source.primaryVideoStreamIndex else { throw .missingVideoTrack(url) }
            let timeline = try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                try FrameTimeline.read(source, streamIndex: video, shouldCancel: { flag.isRaised })
            }
            if timeline.timestampsJump {
                throw .invalidConfiguration("its timestamps jump (recordings joined into one stream): a chunk that seeks "
                    + "would not see the clock a single encode sees; compress it on one machine, or remux it first "
                    + "(ffmpeg -i IN -c copy OUT.mp4)", file: url)
            }
            return (settings, timeline, try FileFingerprint.headHash(of: url))
        }
        progress.report(0.1)
        let shots: VideoAnalysis
        if let analysis {
            if let mismatch = analysis.mismatch(with: source) {
                throw .invalidConfiguration("the analysis is not of this video: \(mismatch)", file: url)
            }
            shots = analysis
        } else {
            let reporter = progress.subrange(from: 0.1, to: 0.95)
            shots = try await (analyzer ?? shotFinder).analysis(of: MediaIntelligenceVideoAsset(url: url), probed: source,
                                                                  progressHandler: { reporter.report($0) })
        }
        let toSourceEnd = config.trimEndTime.map { $0 >= duration } ?? true
        let pictures = settings.outputFrameStarts(
            frameTimes: timeline.frameTimes, start: range.start, end: range.end, toSourceEnd: toSourceEnd,
            sourceEnd: timeline.end, reducer: ReduceFrameEvenlySpaced())
        guard !pictures.isEmpty else {
            throw .invalidConfiguration("no picture of the video lies in the kept range", file: url)
        }
        let shotStarts = shots.shots.dropFirst().map(\.start.seconds)
            .filter { $0 > range.start.seconds && $0 < range.end.seconds }
        let cuts = ChunkCuts(pictures: pictures, shots: shotStarts, keyframes: timeline.keyframeTimes,
                             end: range.end, length: chunkLength,
                             keyframeGrid: settings.config.videoCodec.placesKeyframesAtShots
                                 ? nil : settings.config.maxKeyFrameInterval).cuts()
        let chunks = Self.chunks(starts: [range.start] + cuts.map(\.time), atShot: [true] + cuts.map(\.atShot),
                                 range: range, pictures: pictures, timeline: timeline, settings: settings)
        // The first chunk fades in and the last fades out on their own: each fade must lie in its chunk.
        if let fade = config.edgeFadeDuration, fade > 0, let first = chunks.first, let last = chunks.last,
           min(first.duration, last.duration) < fade + 0.1 {
            throw .invalidConfiguration(String(format: "a %.2f s fade does not fit in the first or last chunk (%.2f s, %.2f s); "
                + "use longer chunks or a shorter fade", fade, first.duration, last.duration), file: url)
        }
        var plan = ChunkPlan(
            version: currentVersion, id: "",
            source: SourceFingerprint(path: url.path, size: source.fileSize, duration: source.duration, headSHA256: headHash),
            settings: settings, range: range, chunkLength: chunkLength, frameCount: pictures.count, chunks: chunks,
            audioIndex: settings.keepsAudio || settings.keepsSubtitles == true ? chunks.count : nil, shotStarts: shotStarts)
        plan.id = try plan.contentHash()
        progress.finish()
        return plan
    }

    /// The chunks between consecutive `starts`, with their pictures, source bytes and (when
    /// the settings share a bit rate out) their share of it.
    private static func chunks(
        starts: [MediaTime], atShot: [Bool], range: TimeRange, pictures: [MediaTime], timeline: FrameTimeline,
        settings: ChunkSettings
    ) -> [Chunk] {
        let ends = Array(starts.dropFirst()) + [range.end]
        var chunks: [Chunk] = []
        for (index, (start, end)) in zip(starts, ends).enumerated() {
            // The last chunk holds every picture left (one may start at or after the range's
            // end when the range runs to the source's end).
            let isLast = index == starts.count - 1
            // Both lists are sorted: each chunk takes the slice from its start to its end.
            let mine = Self.slice(pictures, from: start, to: isLast ? nil : end)
            let sized = Self.slice(timeline.frameTimes, from: start, to: isLast ? nil : end)
            let bytes = timeline.frameBytes[sized].reduce(0, +)
            chunks.append(Chunk(index: index, start: start, end: end, outputStart: start - range.start, frames: mine.count,
                                firstPicture: (mine.first.map { pictures[$0] } ?? start) - start, startsAtShot: atShot[index], videoBitrate: nil,
                                sourceBytes: bytes))
        }
        guard settings.sharesBitrate else { return chunks }
        // As x264 and x265 share bits within one encode (qcomp 0.6): a chunk's rate follows its
        // complexity to the power 0.6, its complexity measured by the source's bytes a second
        // there (where the source's encoder needed bits). Proportional to the bytes, still
        // chunks (story.mp4's black seconds) could not use their share while busy ones were
        // starved; proportional to the time, x265 could not get a quiet chunk down to it.
        let totalSeconds = range.duration.seconds
        let bits = Double(settings.config.videoBitrate) * totalSeconds
        let complexity = chunks.map { pow(Double(max($0.sourceBytes, 1)) / max($0.duration, 0.001), 0.6) * $0.duration }
        let total = max(complexity.reduce(0, +), 1)
        for index in chunks.indices {
            let seconds = chunks[index].duration
            chunks[index].videoBitrate = max(Int((bits * complexity[index] / total / max(seconds, 0.001)).rounded()), 1_000)
        }
        return chunks
    }

    /// The indices of the sorted `times` from `start` on, up to `end` (excluded) when given.
    private static func slice(_ times: [MediaTime], from start: MediaTime, to end: MediaTime?) -> Range<Int> {
        func firstIndex(notBefore time: MediaTime) -> Int {
            var low = 0, high = times.count
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < time { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let lower = firstIndex(notBefore: start)
        return lower..<max(lower, end.map(firstIndex(notBefore:)) ?? times.count)
    }
}
