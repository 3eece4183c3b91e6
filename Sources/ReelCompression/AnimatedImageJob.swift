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
        // A fit well under the target, kept aside while larger encodes are tried: at most two, the
        // second half as far up (in the model) as the first, which went over.
        let aside = location.temporaryURL.appendingPathExtension("fit")
        defer { try? FileManager.default.removeItem(at: aside) }
        var fitted: (fit: Fit, config: CompressionConfig, planner: CompressionPlanner, growth: Double)?
        func finish(_ fit: Fit) throws(ReelError) -> CompressionResult {
            try location.commit()
            var result = fit.result
            result.analytics.targetSize = TargetSizeReport(
                targetBytes: target, achievedBytes: fit.size,
                videoBitrate: Int(Double(fit.size) * 8 / max(plan.keptDuration, 0.001)), encodes: attempts.count,
                loweredDimensions: fit.side < startSide ? result.analytics.compressedVisualDimensions : nil,
                loweredFrameRate: fit.rate < startRate - 0.001 ? fit.rate : nil, attempts: attempts, keptPresetResult: attempts.count == 1)
            progress.finish()
            return result
        }
        for attempt in 1...Self.attempts {
            if flag.isRaised { throw .cancelled }
            let result = try encode(config, started: started)
            let size = FileSize.of(location.temporaryURL)
            if let step, step.modelled > 1.02, size > 0, step.size > size {
                response = min(max(log(Double(step.size) / Double(size)) / log(step.modelled), 0.3), 1.5)
            }
            let planner = CompressionPlanner(source: source, config: config, reducer: plan.frameReducer)
            attempts.append([Int64(planner.outputFrameRate * 1000), Int64(planner.outputLongerSide), size])
            let fit = Fit(result: result, size: size, rate: planner.outputFrameRate, side: planner.outputLongerSide)
            if size <= target {
                // Lowered too far (the model is rough): a step back up the ladder, if encodes remain.
                guard fitted == nil, let step, attempt < Self.attempts, size > 0, Double(size) < Self.refineBelow * Double(target) else {
                    return try finish(fit)
                }
                let growth = min(pow(Self.aim * Double(target) / Double(size), 1 / response), step.modelled.squareRoot())
                guard let larger = Self.larger(config, than: planner, original: plan.planner.config, startSide: startSide,
                                               growth: growth) else {
                    return try finish(fit)
                }
                try moveAside(to: aside)
                fitted = (fit, config, planner, growth)
                config = larger.config
                continue
            }
            location.discard()
            if let kept = fitted {
                // The step back up went over: half as far once more, else the fit kept aside.
                let half = kept.growth.squareRoot()
                if attempt < Self.attempts, half > 1.05,
                   let larger = Self.larger(kept.config, than: kept.planner, original: plan.planner.config,
                                            startSide: startSide, growth: half) {
                    fitted?.growth = 1  // no third try: if this one goes over too, the fit is kept
                    config = larger.config
                    continue
                }
                try moveBack(from: aside)
                return try finish(kept.fit)
            }
            let excess = pow(Double(size) / (Self.aim * Double(target)), 1 / response)
            guard let smaller = Self.smaller(config, planner: planner, excess: excess) else { break }
            config = smaller.config
            step = (size, smaller.modelled)
        }
        // Said as it was: the last encode's settings and size, and whether anything was left to lower.
        let last = attempts.last ?? [0, 0, 0]
        let lowest = Self.smaller(config, planner: CompressionPlanner(source: source, config: config, reducer: plan.frameReducer),
                                  excess: 2) == nil
        throw .encodingFailed(source.url, operation: "target size",
                              reason: "the \(config.fileType.rawValue.uppercased()) stayed over the target of "
                                + "\(TargetSizeJob.describe(target)): the last of \(attempts.count) encodes, at "
                                + String(format: "%g", Double(last[0]) / 1000) + " fps and \(last[1]) pixels"
                                + (lowest ? " with the fewest colours" : "") + ", was \(TargetSizeJob.describe(last[2])); "
                                + "try a larger target or a shorter piece")
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

    /// A fit under this share of the target is followed by an encode a step larger.
    static let refineBelow = 0.8

    /// An encode that fits, and the frame rate and longer side it was made at.
    struct Fit {
        var result: CompressionResult
        var size: Int64
        var rate: Double
        var side: Int
    }

    private func moveAside(to aside: URL) throws(ReelError) {
        do {
            try? FileManager.default.removeItem(at: aside)
            try FileManager.default.moveItem(at: location.temporaryURL, to: aside)
        } catch {
            throw .invalidOutputPath(location.finalURL, reason: "cannot keep an encode aside: \(error.localizedDescription)")
        }
    }

    private func moveBack(from aside: URL) throws(ReelError) {
        do {
            try FileManager.default.moveItem(at: aside, to: location.temporaryURL)
        } catch {
            throw .invalidOutputPath(location.finalURL, reason: "cannot take back the encode kept aside: \(error.localizedDescription)")
        }
    }

    /// `config` made larger by about `growth` in the same model, undoing `smaller` in reverse:
    /// colours or quality first (up to `original`'s), then the picture (up to `startSide`),
    /// then the frame rate (up to `original`'s); `nil` when nothing can be raised.
    static func larger(_ config: CompressionConfig, than planner: CompressionPlanner, original: CompressionConfig,
                       startSide: Int, growth: Double) -> (config: CompressionConfig, modelled: Double)? {
        guard growth > 1.05 else { return nil }
        var next = config
        var left = growth
        let step: Float = config.fileType == .gif ? 0.125 : 0.15
        let ceiling = config.fileType == .gif ? min(original.videoQuality, 0.5) : original.videoQuality
        if next.videoQuality < ceiling - 0.001 {
            let steps = min((log(left) / log(1.25)).rounded(.down), Double(((ceiling - next.videoQuality) / step).rounded(.up)))
            if steps >= 1 {
                next.videoQuality = min(next.videoQuality + Float(steps) * step, ceiling)
                left /= pow(1.25, steps)
            }
        }
        let side = planner.outputLongerSide
        if left > 1.05, side < startSide {
            let raised = min(Int(Double(side) * left.squareRoot()) / 2 * 2, startSide)
            if raised > side {
                next.maxLongerDimension = raised
                left /= pow(Double(raised) / Double(side), 2)
            }
        }
        let rate = planner.outputFrameRate
        if left > 1.05, rate < Double(original.fps) - 0.01 {
            let raised = min(rate * left, Double(original.fps))
            next.fps = Float(raised)
            left /= raised / rate
        }
        return next == config ? nil : (next, growth / left)
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
