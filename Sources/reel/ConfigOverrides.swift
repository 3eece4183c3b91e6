import Foundation
import ReelArguments
import ReelKit

/// The `--reducer` choices: how frames are dropped to reach the target frame rate.
enum ReducerChoice {
    /// The names accepted on the command line.
    static let names = ["even", "random", "scene"]

    /// The reducer named `name` (one of `names`); `seed` only matters for `random`.
    static func reducer(named name: String?, seed: UInt64?) -> any VideoFrameReducer {
        switch name {
        case "random": return seed.map { ReduceFrameRandomly(seed: $0) } ?? ReduceFrameRandomly()
        case "scene": return SceneAwareReducer()
        default: return ReduceFrameEvenlySpaced()
        }
    }
}

/// Builds the `CompressionConfig` of `reel compress` from a preset and the override options.
struct ConfigOverrides {
    /// The parsed `compress` arguments.
    let arguments: ParsedArguments
    /// The presets `--preset` may name.
    let catalog: PresetCatalog

    /// The configuration and frame reducer the options ask for.
    ///
    /// Throws a usage failure for conflicting or out-of-range options and a plain failure when
    /// `--preset-file` cannot be read.
    func resolve() throws(CommandFailure) -> (CompressionConfig, any VideoFrameReducer) {
        var config = try baseConfig()
        do throws(ArgumentError) {
            try applyVideo(to: &config)
            try applyTrim(to: &config)
            try applyAudio(to: &config)
        } catch {
            throw CommandFailure(error)
        }
        if let format = arguments.value("format").flatMap(OutputFileType.init(rawValue:)) {
            config.fileType = format
        }
        do {
            try config.validate()
        } catch {
            throw .usage(error.description)
        }
        return (config, try reducer())
    }

    /// The chosen preset's configuration (medium when none is named).
    private func baseConfig() throws(CommandFailure) -> CompressionConfig {
        if let path = arguments.value("preset-file") {
            if arguments.value("preset") != nil {
                throw .usage("give either --preset or --preset-file, not both")
            }
            let url = URL(fileURLWithPath: path)
            do {
                return try Preset.load(from: url).config
            } catch {
                throw .failure(error.description.replacingOccurrences(of: url.path, with: path))
            }
        }
        let name = arguments.value("preset") ?? VideoQuality.mediumQuality.presetName
        guard let entry = catalog.entry(named: name) else {
            throw .usage("unknown preset '\(name)'; see 'reel presets'")
        }
        return entry.preset.config
    }

    /// Codec, rate control, size, frame rate and picture options.
    private func applyVideo(to config: inout CompressionConfig) throws(ArgumentError) {
        if let codec = arguments.value("codec").flatMap(VideoCodec.init(rawValue:)) {
            config.videoCodec = codec
            config.fallbackVideoCodec = nil
        }
        if let speed = arguments.value("speed").flatMap(EncoderSpeed.init(rawValue:)) {
            config.encoderSpeed = speed
        }
        if let hdr = arguments.value("hdr").flatMap(HDRHandling.init(rawValue:)) {
            config.hdr = hdr
        }
        let bitrate = try arguments.value("bitrate", as: ValueParsers.bitrate)
        switch arguments.value("rate-control").flatMap(RateControl.init(rawValue:)) {
        case .capped?:
            config.useExplicitBitrate = true
            config.bitrateMode = .cappedQuality
        case .average?:
            config.useExplicitBitrate = true
            config.bitrateMode = .average
        case .quality?:
            if bitrate != nil {
                throw .invalidValue(
                    option: "--rate-control", value: "quality",
                    reason: "constant quality uses no bit rate; drop --bitrate or use capped")
            }
            config.useExplicitBitrate = false
        case nil:
            break
        }
        if let bitrate {
            config.videoBitrate = bitrate
            config.useExplicitBitrate = true
        }
        if let quality = try arguments.value("quality", as: ValueParsers.fraction) {
            config.videoQuality = Float(quality)
        }
        if let quality = arguments.value("target-quality") {
            let parts = quality.lowercased().split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let metric = TargetQuality.Metric(rawValue: parts[0]), let value = Double(parts[1]) else {
                throw .invalidValue(option: "--target-quality", value: quality, reason: "expected ssim:VALUE or psnr:VALUE, such as ssim:0.98 or psnr:40")
            }
            let given = ["bitrate", "rate-control", "quality", "target-size", "crossfade"].filter { arguments.value($0) != nil }
                + (arguments.flag("copy") ? ["copy"] : [])
            if let clash = given.first {
                throw .invalidValue(option: "--target-quality", value: quality, reason: "the quality target decides the rates; drop --\(clash)")
            }
            config.targetQuality = .analyzedShots(metric, value)
        }
        if let target = try arguments.value("target-size", as: TargetSizeOption.parse) {
            let given = ["bitrate", "rate-control", "quality"].filter { arguments.value($0) != nil }
                + (arguments.flag("copy") ? ["copy"] : [])
            if let clash = given.first {
                throw .invalidValue(option: "--target-size", value: arguments.value("target-size") ?? "",
                                    reason: "the size decides the bit rate; drop --\(clash)")
            }
            config.targetFileSize = target
        }
        if arguments.flag("adaptive-bitrate") { config.useAdaptiveBitrate = true }
        if arguments.value("max-dimension") != nil && arguments.value("max-size") != nil {
            throw .invalidValue(option: "--max-size", value: arguments.value("max-size") ?? "",
                                reason: "give --max-dimension or its old name --max-size, not both")
        }
        if let size = try arguments.value("max-dimension", as: Self.maxSize) {
            config.maxLongerDimension = size
        }
        if let size = try arguments.value("max-size", as: Self.maxSize) {
            // Most people read "max size" as a file size: say what it does when the value looks like one.
            if let pixels = size, pixels < 128 {
                Console.error("--max-size \(pixels) makes the picture's longest side \(pixels) pixels (it is not a file "
                    + "size); --max-dimension is its name now")
            }
            config.maxLongerDimension = size
        }
        if let fps = try arguments.value("fps", as: ValueParsers.positiveDouble) {
            config.fps = Float(fps)
        }
        if let keyint = try arguments.value("keyint", as: ValueParsers.positiveInteger) {
            config.maxKeyFrameInterval = keyint
        }
        if arguments.flag("rotate-pixels") { config.forceVisualEncodingDimensions = true }
        if let level = arguments.value("denoise").flatMap(NoiseReduction.init(rawValue:)) {
            config.preprocessing.noiseReduction = level
        }
        if arguments.flag("auto-levels") { config.preprocessing.autoLevels = true }
        if arguments.flag("no-content-aware") { config.contentAwareOptimization = false }
        if arguments.flag("copy") { config.streamCopy = true }
        if let crossfade = try arguments.value("crossfade", as: ValueParsers.positiveDouble) {
            config.crossfadeDuration = crossfade
        }
    }

    /// `--start` and `--end`, exact, start before end; or `--ranges`.
    private func applyTrim(to config: inout CompressionConfig) throws(ArgumentError) {
        if let ranges = try arguments.value("ranges", as: ValueParsers.timeRanges) {
            if let clash = ["start", "end"].first(where: { arguments.value($0) != nil }) {
                throw .invalidValue(option: "--\(clash)", value: arguments.value(clash) ?? "",
                                    reason: "--ranges already says what to keep")
            }
            config.trim = .ranges(ranges.map {
                TimeRange(start: Self.mediaTime($0.start), end: Self.mediaTime($0.end))
            })
            return
        }
        let start = try arguments.value("start", as: ValueParsers.time).map(Self.mediaTime)
        let end = try arguments.value("end", as: ValueParsers.time).map(Self.mediaTime)
        if let start, let end, end <= start {
            throw .invalidValue(
                option: "--end", value: arguments.value("end") ?? "",
                reason: "the end must come after --start")
        }
        config.trimStartTime = start
        config.trimEndTime = end
    }

    /// Audio codec, rate, channels, or no audio at all.
    private func applyAudio(to config: inout CompressionConfig) throws(ArgumentError) {
        if arguments.flag("strip-metadata") { config.keepsMetadata = false }
        if arguments.flag("no-subtitles") { config.keepsSubtitles = false }
        if arguments.flag("no-audio") {
            let audioOptions = ["audio-codec", "audio-bitrate", "audio-rate", "audio-channels", "audio-track"]
            if let given = audioOptions.first(where: { arguments.value($0) != nil }) {
                throw .invalidValue(
                    option: "--" + given, value: arguments.value(given) ?? "",
                    reason: "--no-audio leaves the audio out; drop one of the two")
            }
            config.audioBitrate = 0
            return
        }
        if let codec = arguments.value("audio-codec").flatMap(AudioCodecType.init(rawValue:)) {
            config.audioCodec = codec
        }
        if let bitrate = try arguments.value("audio-bitrate", as: ValueParsers.bitrate) {
            config.audioBitrate = bitrate
        }
        if let rate = try arguments.value("audio-rate", as: ValueParsers.positiveInteger) {
            config.audioSampleRate = rate
        }
        if let channels = arguments.value("audio-channels").flatMap({ Int($0) }) {
            config.audioChannels = channels
        }
        if let track = arguments.value("audio-track") {
            if track.lowercased() == "all" {
                config.audioTracks = .all
            } else if let number = Int(track), number >= 1 {
                config.audioTracks = .number(number)
            } else {
                throw .invalidValue(option: "--audio-track", value: track,
                                    reason: "give a track number counted from 1 (see 'reel probe') or 'all'")
            }
        }
    }

    /// The `--reducer` and its `--seed`.
    private func reducer() throws(CommandFailure) -> any VideoFrameReducer {
        let name = arguments.value("reducer")
        let seed: Int?
        do {
            seed = try arguments.value("seed", as: ValueParsers.positiveInteger)
        } catch {
            throw CommandFailure(error)
        }
        if seed != nil, name != "random" {
            throw .usage("--seed only applies to --reducer random")
        }
        return ReducerChoice.reducer(named: name, seed: seed.map { UInt64($0) })
    }

    /// The exact `MediaTime` of a parsed command-line time.
    private static func mediaTime(_ time: ParsedTime) -> MediaTime {
        MediaTime(value: time.value, timescale: time.timescale)
    }

    /// Parses `--max-dimension` (or `--max-size`): a whole number of pixels, or `original`.
    private static func maxSize(_ text: String, option: String) throws(ArgumentError) -> Int? {
        if text == "original" { return nil }
        return try ValueParsers.positiveInteger(text, option: option)
    }
}
