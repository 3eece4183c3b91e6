import ReelArguments
import ReelKit

/// `--target-quality METRIC:VALUE`: a quality the encode reaches shot by shot.
struct QualityGoal: Sendable, Equatable {
    /// SSIM or PSNR.
    let metric: TargetQuality.Metric
    /// The value to reach, e.g. 0.98 or 40.
    let value: Double

    /// Parses `ssim:0.98` or `psnr:40` (the metric in any case).
    static func parse(_ text: String, option: String) throws(ArgumentError) -> QualityGoal {
        let parts = text.lowercased().split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let metric = TargetQuality.Metric(rawValue: parts[0]), let value = Double(parts[1]) else {
            throw .invalidValue(option: option, value: text, reason: "expected ssim:VALUE or psnr:VALUE, such as ssim:0.98 or psnr:40")
        }
        return QualityGoal(metric: metric, value: value)
    }
}

/// `--target-quality` and `--target-size`: targets that decide the rates themselves, so they
/// contradict the options that set rates.
struct TargetOptions: Sendable {
    /// The keys.
    enum Keys {
        static let quality = OptionKey<QualityGoal>(
            "target-quality", valueName: "METRIC:VALUE",
            help: "Reach this quality shot by shot at the fewest bytes: ssim:0.98 or psnr:40 (samples each shot).",
            parse: QualityGoal.parse)
        static let size = OptionKey<TargetFileSize>(
            "target-size", valueName: "SIZE",
            help: "Never larger than this: 25M or 25MB (10^6 bytes), 24MiB (2^20), or 40% of the source; two passes.",
            parse: TargetSizeOption.parse)
    }

    /// The declarations, in help order.
    static let specs = [Keys.quality.spec, Keys.size.spec]

    /// `--target-quality`, and as typed.
    let quality: QualityGoal?
    let qualityText: String?
    /// `--target-size`, and as typed.
    let size: TargetFileSize?
    let sizeText: String?

    /// Reads both options.
    init(_ arguments: ParsedArguments) throws(ArgumentError) {
        quality = try arguments.value(Keys.quality)
        qualityText = try arguments.text(Keys.quality)
        size = try arguments.value(Keys.size)
        sizeText = try arguments.text(Keys.size)
    }

    /// Sets the targets. `rateOptions` are the rate options given (`bitrate`, `rate-control`,
    /// `quality`, in that order), `crossfade` and `copy` whether those were given: each
    /// contradicts a target, and the first one given is named.
    func apply(
        to config: inout CompressionConfig, rateOptions: [String], crossfade: Bool, copy: Bool
    ) throws(ArgumentError) {
        if let quality, let qualityText {
            let given = rateOptions + (size != nil ? ["target-size"] : []) + (crossfade ? ["crossfade"] : [])
                + (copy ? ["copy"] : [])
            if let clash = given.first {
                throw .invalidValue(option: "--target-quality", value: qualityText,
                                    reason: "the quality target decides the rates; drop --\(clash)")
            }
            config.targetQuality = .analyzedShots(quality.metric, quality.value)
        }
        if let size, let sizeText {
            if let clash = (rateOptions + (copy ? ["copy"] : [])).first {
                throw .invalidValue(option: "--target-size", value: sizeText,
                                    reason: "the size decides the bit rate; drop --\(clash)")
            }
            config.targetFileSize = size
        }
    }
}
