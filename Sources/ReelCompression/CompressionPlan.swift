import Foundation
import ReelFrameReduction
import ReelMedia
import ReelSupport

/// One compression, decided before any encoding: the source as probed, the settings checked,
/// the ranges kept (a highlight reel's analysis already run) and the output checked writable.
/// `VideoCompressor.plan` builds it once; `VideoCompressor.compress(_:)` runs it, reading its
/// facts instead of working them out again. A dry run is a plan that is shown and not run.
public struct CompressionPlan: Sendable {
    /// What a plan is made for.
    package enum Purpose: Sendable, Equatable {
        /// A whole output file.
        case file
        /// One chunk of a chunked encode: a target size never changes the picture size or
        /// frame rate the chunk plan fixed, and the preset's own result is never used instead,
        /// so every chunk is encoded alike. The picture fades in from black only at the start
        /// of the first chunk and out only at the end of the last (`edgeFadeDuration`).
        case chunk(fadesIn: Bool, fadesOut: Bool)
    }

    /// The source, probed once.
    public let source: MediaInfo
    /// The settings the compression runs with: checked, and a planned trim (a highlight reel)
    /// replaced by the ranges it chose.
    public let config: CompressionConfig
    /// How frames are dropped when the frame rate is lowered.
    public let frameReducer: any VideoFrameReducer
    /// The source ranges kept, in output order, on the file's timeline (zero is the container's
    /// start), with their edges on the output's frame grid. A stream copy widens them to
    /// keyframes when it runs (`CompressionAnalytics.keptRanges`).
    public let keptRanges: [TimeRange]
    /// The video codec the encode uses: the config's, or its fallback when this FFmpeg lacks it.
    public let videoCodec: VideoCodec
    /// What a planned trim worked its ranges out from (ReelKit's `analysis` reads a highlight
    /// reel's); `nil` for other trims.
    public let trimBasis: (any TrimBasis)?
    /// The file the compression writes (under a temporary name first, renamed when complete),
    /// checked writable when the plan was made.
    public let outputURL: URL
    /// The virtual camera's path when the config reframes the video (`CompressionConfig.reframing`),
    /// worked out on the kept ranges; `nil` otherwise, or when the picture already has the shape.
    public var cameraPath: CameraPath? { planner.cameraPath }
    /// Wall-clock seconds the planning took: mostly a highlight reel's analysis or a target
    /// quality's shot detection; a probe and a few checks otherwise.
    public let planningTime: TimeInterval

    package let purpose: Purpose
    /// The encoding decisions for this source and config (made once, read by every stage).
    var planner: CompressionPlanner
    /// `keptRanges` as the transcoder reads them (source times, seek and end flags).
    let ranges: [ClosedSourceRange]
    /// Shot starts for a target quality (seconds from the first picture), else empty.
    let shotStarts: [Double]

    /// The joins that dissolve over `config.crossfadeDuration`, each numbered by the range before
    /// it (0: between the first and second ranges): every join when a crossfade is asked for and
    /// its range is long enough, a highlight reel's jump cuts only. Empty: every join cuts.
    public var dissolvingJoins: [Int] {
        planner.dissolvingJoins(lengths: keptRanges.map { ($0.end - $0.start).seconds })
    }

    /// Seconds of source the output holds, before crossfades shorten each join.
    public var keptDuration: Double { keptRanges.map { ($0.end - $0.start).seconds }.reduce(0, +) }

    /// Whether this plan is for one chunk of a chunked encode.
    var isChunk: Bool { if case .chunk = purpose { true } else { false } }
}

extension CompressionPlan {
    /// Builds the plan of compressing `source` with checked settings: the output is checked
    /// first, then the video and the encoders, then planning runs (trim planner, shot planner)
    /// in `progress`, then the kept ranges are fixed.
    static func make(
        _ source: MediaInfo, config validated: ValidatedConfig, reducer: any VideoFrameReducer, purpose: Purpose,
        progress: CompressionProgress, flag: CancellationFlag
    ) async throws(ReelError) -> CompressionPlan {
        let started = Date()
        let config = validated.config
        let output = config.outputURL
            ?? OutputLocation.generatedURL(for: source.url, in: config.outputDirectory, fileExtension: config.fileType.fileExtension)
        try OutputLocation.check(for: source.url, finalURL: output)
        try source.requireVideo()
        var planner = CompressionPlanner(source: source, config: config, reducer: reducer)
        if case .chunk(let fadesIn, let fadesOut) = purpose { planner.pictureFadeEnds = (fadesIn, fadesOut) }
        let codec = try planner.checkEncoders()
        var basis: (any TrimBasis)?
        // `progress` is the planning's share; the trim planner and the framing pass split it.
        let planningShare = validated.planningProgressShare
        let trimPart = planningShare > 0 ? validated.trimPlanningShare / planningShare : 1
        if case .planned(let trimPlanner) = config.trim {
            progress.stage(.planning)
            let trim = try await Self.run(trimPlanner, source: source, flag: flag,
                                          progress: progress.subrange(from: 0, to: trimPart).reporter)
            planner.config.trim = .ranges(trim.ranges)
            basis = trim.basis
            if !trim.focus.isEmpty { planner.config.reframing?.focus = trim.focus }
            // What the trim asks of the output (a reel's fades, loudness, dissolves) where the config
            // says nothing; a copy cannot, and a target quality refuses crossfades.
            if !config.streamCopy {
                if planner.config.edgeFadeDuration == nil { planner.config.edgeFadeDuration = trim.edgeFadeDuration }
                if planner.config.loudness == nil { planner.config.loudness = trim.loudness }
                if let crossfade = trim.joinCrossfade, planner.config.crossfadeDuration == 0, config.targetQuality == nil,
                   trim.ranges.allSatisfy({ $0.duration.seconds >= 2 * crossfade }) {
                    planner.config.crossfadeDuration = crossfade
                    planner.cutJoins = trim.cutJoins
                }
            }
        }
        var shotStarts: [Double] = []
        if let shots = config.targetQuality?.shots {
            progress.stage(.planning)
            shotStarts = try await shots.shotStarts(of: source)
        }
        if flag.isRaised { throw .cancelled }
        var ranges = try planner.keptRanges()
        if let reframing = planner.config.reframing {
            if reframing.path == nil { progress.stage(.planning) }
            let dissolving = planner.dissolvingJoins(lengths: ranges.map { ($0.end - $0.start).seconds })
            let framed = try await FramingPass.path(
                of: source, ranges: ranges, reframing: reframing, frameRate: planner.outputFrameRate,
                dissolvingJoins: Set(dissolving), dissolve: planner.config.crossfadeDuration,
                bursts: planner.config.contentAwareOptimization ? ContentAwareTuning.bursts(over: ranges) : nil, flag: flag,
                progress: progress.phase(from: trimPart, to: 1))
            planner.config.reframing?.path = framed.path
            planner.contentBursts = framed.bursts
            // Joins whose two windows would show the background twice cut, at the dissolve's
            // middle (`ReframedJoins`): the output lasts as long.
            if !framed.cutJoins.isEmpty, case .ranges(let listed) = planner.config.trim {
                planner.cutJoins.formUnion(framed.cutJoins)
                planner.config.trim = .ranges(ReframedJoins.cutAtMiddles(
                    listed, joins: framed.cutJoins, dissolve: planner.config.crossfadeDuration))
                ranges = try planner.keptRanges()
            }
        }
        let origin = MediaTime(seconds: source.startTime, timescale: 1_000_000)
        return CompressionPlan(
            source: source, config: planner.config, frameReducer: reducer,
            keptRanges: ranges.map { TimeRange(start: $0.start - origin, end: $0.end - origin) },
            videoCodec: codec, trimBasis: basis, outputURL: output,
            planningTime: Date().timeIntervalSince(started), purpose: purpose, planner: planner, ranges: ranges,
            shotStarts: shotStarts)
    }

    /// Runs `planner` for `source`; `flag` (raised by `cancel()`) or cancelling the task stops it.
    private static func run(
        _ planner: any TrimPlanner, source: MediaInfo, flag: CancellationFlag, progress: ProgressReporter
    ) async throws(ReelError) -> PlannedTrim {
        let task = Task { () async throws(ReelError) -> PlannedTrim in
            try await planner.plan(of: source) { progress.report($0) }
        }
        flag.onRaise { task.cancel() }
        let outcome = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        if flag.isRaised { throw .cancelled }
        switch outcome {
        case .success(let trim): return trim
        case .failure(let error as ReelError): throw error
        case .failure: throw .cancelled
        }
    }
}
