import Foundation
import ReelFrameReduction
import ReelMedia
import ReelSupport

/// The settings a chunked encode fixes once, before any chunk is encoded, so that every chunk
/// is encoded alike wherever it runs: content-aware adjustments measured on the whole kept
/// range, a target size turned into an average bit rate for the whole video (with the picture
/// lowered for it once), and the output's frame timing.
public struct ChunkSettings: Sendable, Equatable, Codable {
    /// The configuration every chunk starts from (no content measurement, no target size left
    /// to resolve; its trim is the whole kept range).
    public var config: CompressionConfig
    /// What content-aware optimization measured on the kept range, already applied to `config`.
    public var contentAdjustment: ContentAdjustment?
    /// The requested size, when the config had one (the chunks share its video budget).
    public var targetFileSize: Int64?
    /// Whether chunks get shares of `config.videoBitrate` by their complexity (a target size
    /// or an average bit rate) instead of all encoding at the same settings.
    public var sharesBitrate: Bool
    /// Whether each chunk aims at its share of a target size in two passes (as a single
    /// encode to that size would, without making its picture smaller on its own).
    public var twoPassShares: Bool
    /// Frames per second of the output.
    public var outputFrameRate: Double
    /// The rate frames are reduced to, or `nil` when every source frame is kept.
    public var reducedFrameRate: Double?
    /// Whether the output has sound (encoded once, by the plan's audio job).
    public var keepsAudio: Bool
    /// Whether the output has text subtitles (carried by the audio job too); `nil` in plans
    /// made before they were carried.
    public var keepsSubtitles: Bool?

    /// Resolves `config` (checked already: `ChunkPlan.make` takes a `ValidatedConfig`) for
    /// `source`: measures the content once (off the cooperative threads when called from a
    /// task) and fixes everything chunks must share.
    package static func resolve(
        _ config: CompressionConfig, for source: MediaInfo, keptDuration: Double, shouldCancel: @escaping () -> Bool
    ) throws(ReelError) -> ChunkSettings {
        try source.requireVideo()
        var resolved = config
        let planner = CompressionPlanner(source: source, config: config, reducer: ReduceFrameEvenlySpaced())
        try planner.checkEncoders()
        let ranges = try planner.keptRanges()
        let measuresContent = config.targetFileSize == nil && config.targetQuality == nil && config.contentAwareOptimization
        var bursts: ContentBursts?
        // One camera path for the whole range: every chunk crops its part of it, so the window
        // runs on across chunk edges as in a single encode. Its decode measures the content too.
        if let reframing = config.reframing, reframing.path == nil {
            let framed = try FramingPass.plannedPath(
                of: source, ranges: ranges, reframing: reframing, frameRate: planner.outputFrameRate,
                bursts: measuresContent ? ContentAwareTuning.bursts(over: ranges) : nil, shouldCancel: shouldCancel)
            resolved.reframing?.path = framed.path
            bursts = framed.bursts
        }
        var adjustment: ContentAdjustment?
        if let measured = try ContentAwareTuning.measure(source, over: ranges, when: measuresContent, measured: bursts,
                                                         shouldCancel: shouldCancel) {
            adjustment = measured
            resolved.maxKeyFrameInterval *= measured.keyFrameIntervalFactor
            resolved.videoBitrate = Int((Double(config.videoBitrate) * measured.bitrateFactor).rounded())
            // The CRF offset, as the quality that maps to the offset CRF (CRF = 40 - 24 q).
            resolved.videoQuality = min(max(config.videoQuality - Float(measured.constantRateFactorOffset / 24), 0), 1)
        }
        resolved.contentAwareOptimization = false
        var targetBytes: Int64?
        var twoPass = false
        if let limit = config.targetFileSize {
            let target = limit.bytes(forSourceOf: source.fileSize)
            targetBytes = target
            var budget = TargetSizeBudget(planner: planner, targetBytes: target, duration: keptDuration)
            // The chunks cannot make up for an audio estimate that was wrong (AAC spends far less
            // than its rate on silence) as a single encode does by encoding again: the sound
            // is encoded once here and its real size taken out of the budget.
            budget.measuredAudioBytes = try measuredAudioBytes(planner: planner, shouldCancel: shouldCancel)
            guard let available = budget.videoBitrate(frameRate: planner.outputFrameRate) else {
                throw .invalidConfiguration(budget.unreachableReason(target: target, frameRate: planner.outputFrameRate),
                                            file: source.url)
            }
            resolved.targetFileSize = nil
            // As a single encode: a preset whose cap already fits is kept as it is.
            let preset = try planner.decide(outputPath: "-", ranges: ranges, content: nil)
            if preset.plan.maximumVideoBitRate.map({ Double($0) > available }) ?? true {
                twoPass = true
                resolved = try TargetSizeJob.tuned(planner: planner, budget: budget, available: available, lowers: true).config
                resolved.targetFileSize = nil
            }
        }
        let final = CompressionPlanner(source: source, config: resolved, reducer: ReduceFrameEvenlySpaced())
        return ChunkSettings(
            config: resolved, contentAdjustment: adjustment, targetFileSize: targetBytes,
            sharesBitrate: resolved.useExplicitBitrate && resolved.bitrateMode == .average, twoPassShares: twoPass,
            outputFrameRate: final.outputFrameRate,
            reducedFrameRate: final.reducesFrameRate ? Double(resolved.fps) : nil,
            keepsAudio: !(try final.keptAudioStreams()).isEmpty, keepsSubtitles: !final.keptSubtitleStreams.isEmpty)
    }

    /// The start of every output picture, on the API's timeline, for pictures starting at
    /// `frameTimes` (sorted) and the kept range `start..<end`: what the transcoder keeps, with
    /// `reducer` choosing when the frame rate is reduced. A chunk boundary at one of these
    /// times splits the output exactly where a single encode has a picture begin. A range that
    /// runs to the source's end (`toSourceEnd`) keeps every picture from `start` on, the last
    /// one lasting until `sourceEnd`, as the transcoder does.
    package func outputFrameStarts(
        frameTimes: [MediaTime], start: MediaTime, end: MediaTime, toSourceEnd: Bool, sourceEnd: MediaTime,
        reducer: any VideoFrameReducer
    ) -> [MediaTime] {
        var spans: [(MediaTime, MediaTime)] = []
        var carried: MediaTime?
        let last = toSourceEnd ? sourceEnd : end
        for (index, time) in frameTimes.enumerated() {
            if time < start {
                carried = time
                continue
            }
            if !toSourceEnd && time >= end { break }
            if spans.isEmpty, carried != nil, time > start { spans.append((start, time)) }
            var next = index + 1 < frameTimes.count ? frameTimes[index + 1] : last
            if !toSourceEnd { next = min(next, end) }
            spans.append((time, next > time ? next : time + MediaTime(value: 1, timescale: 1_000_000)))
        }
        if spans.isEmpty, carried != nil { spans.append((start, last)) }
        guard let rate = reducedFrameRate else { return spans.map(\.0) }
        var selector = reducer.makeSelector(targetFrameRate: rate)
        var starts: [MediaTime] = []
        for (from, to) in spans {
            if case .keep(let at) = selector.select(FrameTiming(start: from - start, end: to - start)) {
                starts.append(start + at)
            }
        }
        return starts
    }
}

extension ChunkSettings {
    /// The size of the kept sound once encoded (`nil` without sound), from an encode into a
    /// temporary file removed afterwards.
    private static func measuredAudioBytes(
        planner: CompressionPlanner, shouldCancel: @escaping () -> Bool
    ) throws(ReelError) -> Double? {
        guard !(try planner.keptAudioStreams()).isEmpty else { return nil }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-audio-\(UUID().uuidString).m4a")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try AudioOnlyJob.encode(planner: planner, to: scratch, shouldCancel: shouldCancel, progress: { _ in })
        return Double(FileSize.of(scratch)) * 1.01
    }

    /// The size a chunk of `seconds` and `frames` pictures, video alone, must not exceed: its
    /// share of the video budget (`videoBitrate`) plus what its container really takes
    /// (`TargetSizeBudget.chunkContainerBytes`, which the chunk's target-size encode counts
    /// too). A larger allowance would let an encoder's overshoot hide in it (x265 went 19% over
    /// its share of a 600 kB target that way) and the joined file would miss its target; a
    /// smaller one left a still chunk's pictures 3 kb/s, below what x264 accepts.
    package static func chunkTarget(videoBitrate: Int, seconds: Double, frames: Int) -> Int64 {
        Int64((Double(videoBitrate) * seconds / 8 + TargetSizeBudget.chunkContainerBytes(frames: Double(frames))).rounded())
    }
}

extension CompressionPlanner {
    /// Whether the plan lowers the frame rate (the source is faster than `fps`).
    var reducesFrameRate: Bool {
        guard let picture = source.primaryVideo?.video else { return false }
        return max(picture.frameRate, picture.baseFrameRate) > Double(config.fps) * 1.001
    }
}
