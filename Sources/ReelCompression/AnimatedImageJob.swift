import Foundation
import ReelMedia
import ReelSupport

/// A GIF or WebP: one encode, or, for a target size, encodes made smaller until one fits.
///
/// A target size has no bit rate to aim at (a GIF's size follows its picture, a WebP's its
/// quality), so the job measures: it encodes with the settings, and while the output is over
/// the target it lowers the frame rate first (to `minimumFrameRate`), then the picture (to
/// `minimumLongerSide`), then the colours (GIF) or the quality (WebP), each by what the last
/// output's excess says, and encodes again, at most `attempts` times. An output that fits is
/// kept; the result is never over the target, and when no encode fits the job fails.
struct AnimatedImageJob {
    let plan: CompressionPlan
    let location: OutputLocation
    let progress: CompressionProgress
    let flag: CancellationFlag

    /// The lowest frame rate a target size lowers to.
    static let minimumFrameRate = 8.0
    /// The shortest longer side a target size lowers the picture to.
    static let minimumLongerSide = 160
    /// Encodes a target size may take, at most.
    static let attempts = 6
    /// The share of the target each new encode aims at: sizes do not follow the settings exactly.
    static let aim = 0.92
    /// How much of a modelled reduction the size shows, as a power, before any is measured: a
    /// GIF of a quarter of the pixels is not a quarter of the bytes (on Big Buck Bunny at 8 fps,
    /// 218 -> 176 px took 1.38x off where the model said 1.53x). Each step measures it anew.
    static let initialResponse = 0.8

    func run(started: Date) throws(ReelError) -> CompressionResult {
        var config = plan.planner.config
        // Motion and detail tune x264's rate control, which an animated image does not have.
        config.contentAwareOptimization = false
        guard let limit = config.targetFileSize else {
            let result = try encode(config, started: started)
            try location.commit()
            progress.finish()
            return result
        }
        let source = plan.source
        let target = limit.bytes(forSourceOf: source.fileSize)
        let first = CompressionPlanner(source: source, config: config, reducer: plan.frameReducer)
        let startRate = first.outputFrameRate
        let startSide = first.outputLongerSide
        var attempts: [[Int64]] = []
        // How the size follows the model (frames times pixels): learnt from each step taken.
        var response = Self.initialResponse
        var step: (size: Int64, modelled: Double)?
        for attempt in 1...Self.attempts {
            if flag.isRaised { throw .cancelled }
            var result = try encode(config, started: started)
            let size = FileSize.of(location.temporaryURL)
            if let step, step.modelled > 1.02, size > 0, step.size > size {
                response = min(max(log(Double(step.size) / Double(size)) / log(step.modelled), 0.3), 1.5)
            }
            let planner = CompressionPlanner(source: source, config: config, reducer: plan.frameReducer)
            attempts.append([Int64(planner.outputFrameRate * 1000), Int64(planner.outputLongerSide), size])
            if size <= target {
                try location.commit()
                let rate = planner.outputFrameRate, side = planner.outputLongerSide
                result.analytics.targetSize = TargetSizeReport(
                    targetBytes: target, achievedBytes: size,
                    videoBitrate: Int(Double(size) * 8 / max(plan.keptDuration, 0.001)), encodes: attempt,
                    loweredDimensions: side < startSide ? result.analytics.compressedVisualDimensions : nil,
                    loweredFrameRate: rate < startRate - 0.001 ? rate : nil, attempts: attempts, keptPresetResult: attempt == 1)
                progress.finish()
                return result
            }
            location.discard()
            let excess = pow(Double(size) / (Self.aim * Double(target)), 1 / response)
            guard let smaller = Self.smaller(config, planner: planner, excess: excess) else { break }
            config = smaller.config
            step = (size, smaller.modelled)
        }
        throw .encodingFailed(source.url, operation: "target size",
                              reason: "the \(config.fileType.rawValue.uppercased()) stayed over the target of "
                                + "\(TargetSizeJob.describe(target)) at \(Int(Self.minimumFrameRate)) fps, "
                                + "\(Self.minimumLongerSide) pixels and the fewest colours; try a larger target or a shorter piece")
    }

    /// One encode with `config`'s settings into the temporary file (not committed). A WebP's
    /// size, length and frames are read from its chunks, which FFmpeg's probe cannot.
    private func encode(_ config: CompressionConfig, started: Date) throws(ReelError) -> CompressionResult {
        let planner = CompressionPlanner(source: plan.source, config: config, reducer: plan.frameReducer)
        var result = try CompressionJob.encode(planner: planner, ranges: plan.ranges, location: location, progress: progress,
                                               flag: flag, started: started, committing: false)
        if config.fileType == .webp, let webp = AnimatedWebPInfo(contentsOf: location.temporaryURL) {
            var analytics = result.analytics
            let dimensions = VideoDimensions(width: webp.width, height: webp.height)
            analytics.compressedDimensions = dimensions
            analytics.compressedVisualDimensions = dimensions
            analytics.compressedDuration = webp.duration
            analytics.compressedFrameCount = webp.frameDurations.count
            analytics.compressedFrameRate = webp.duration > 0 ? Double(webp.frameDurations.count) / webp.duration : 0
            analytics.compressedVideoBitrate = webp.duration > 0 ? Double(analytics.compressedFileSize) * 8 / webp.duration : 0
            analytics.videoCodec = "webp"
            result.analytics = analytics
        }
        return result
    }

    /// `config` made smaller by `excess` in the model (the size taken as proportional to frames
    /// and to pixels, a fifth off for each step of colours or quality): the frame rate first, then
    /// the picture, then colours or quality, each taking what it can. Returns the reduction the
    /// model expects of the change, or `nil` when nothing can be lowered any more.
    static func smaller(_ config: CompressionConfig, planner: CompressionPlanner, excess: Double)
        -> (config: CompressionConfig, modelled: Double)? {
        var next = config
        var left = max(excess, 1.05)
        let rate = planner.outputFrameRate
        if rate > minimumFrameRate + 0.01 {
            let lowered = max(rate / left, minimumFrameRate)
            next.fps = Float(lowered)
            left *= lowered / rate
        }
        let side = planner.outputLongerSide
        if left > 1.01, side > minimumLongerSide {
            let lowered = max(Int(Double(side) / left.squareRoot()) / 2 * 2, minimumLongerSide)
            next.maxLongerDimension = lowered
            left *= pow(Double(lowered) / Double(side), 2)
        }
        if left > 1.01, next.videoQuality > 0 {
            // Halving a GIF's colours, or taking 0.15 off a WebP's quality, saves about a fifth.
            // A GIF keeps all 256 colours from 0.5 up: its steps count from there.
            let step: Float = config.fileType == .gif ? 0.125 : 0.15
            let from = config.fileType == .gif ? min(next.videoQuality, 0.5) : next.videoQuality
            let steps = (log(left) / log(1.25)).rounded(.up)
            let lowered = max(from - Float(steps) * step, 0)
            left /= pow(1.25, Double((from - lowered) / step))
            next.videoQuality = lowered
        }
        return next == config ? nil : (next, max(excess, 1.05) / left)
    }
}

extension CompressionPlanner {
    /// The longer side of the output's picture, as `targetVisualSize` makes it.
    var outputLongerSide: Int {
        guard let picture = source.primaryVideo?.video else { return 0 }
        let (width, height) = targetVisualSize(picture)
        return max(width, height)
    }
}
