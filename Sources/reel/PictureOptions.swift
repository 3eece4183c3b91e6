import ReelArguments
import ReelKit

/// The `--rate-control` choices.
enum RateControl: String, CaseIterable {
    /// Constant quality with the bit rate as a cap.
    case capped
    /// The bit rate on average.
    case average
    /// Constant quality, no bit rate.
    case quality
}

/// `--max-dimension` (or `--max-size`): a longest side in pixels, or the source's.
enum LongestSide: Sendable, Equatable {
    /// Keep the source's size.
    case original
    /// At most this many pixels.
    case pixels(Int)

    /// Parses a whole number of pixels, or `original`.
    static func parse(_ text: String, option: String) throws(ArgumentError) -> LongestSide {
        if text == "original" { return .original }
        return .pixels(try ValueParsers.positiveInteger(text, option: option))
    }

    /// The value of `CompressionConfig.maxLongerDimension`.
    var configValue: Int? {
        if case .pixels(let pixels) = self { return pixels }
        return nil
    }
}

/// The picture and rate options every encoding command shares: codec, speed, HDR, rate
/// control, size, frame rate, keyframes and filters.
struct PictureOptions: Sendable {
    /// The keys.
    enum Keys {
        static let codec = OptionKey<VideoCodec>(
            "codec", valueName: "CODEC",
            help: "Video codec (no fallback when given): h264 (libx264), hevc (libx265), av1 (SVT-AV1), vp9 (libvpx).")
        static let speed = OptionKey<EncoderSpeed>(
            "speed", valueName: "SPEED",
            help: "x264/x265 speed preset: slower is smaller at the same quality (AV1: SVT-AV1 presets 13...4, "
                + "medium 8; VP9: libvpx cpu-used 8...0, medium 3).")
        static let tenBit = FlagKey(
            "ten-bit", help: "Encode 10-bit pictures whatever the source (hevc, av1, vp9): smoother gradients, for archives.")
        static let hdr = OptionKey<HDRHandling>(
            "hdr", valueName: "MODE",
            help: "HDR (PQ/HLG) sources: auto keeps HDR in HEVC and tone-maps H.264 to SDR BT.709; "
                + "keep (H.264 becomes 10-bit High 10, which plays in fewer places); tonemap.")
        static let rateControl = OptionKey<RateControl>(
            "rate-control", valueName: "MODE",
            help: "capped: quality with the bit rate as a cap; average: the bit rate on "
                + "average; quality: constant quality, no bit rate.")
        static let bitrate = OptionKey<Int>(
            "bitrate", short: "b", valueName: "RATE", help: "Video bit rate (cap or average), e.g. 2M or 800k.",
            parse: ValueParsers.bitrate)
        static let quality = OptionKey<Double>(
            "quality", valueName: "Q", help: "Quality from 0 (smallest) to 1 (best), e.g. 0.7.", parse: ValueParsers.fraction)
        static let adaptiveBitrate = FlagKey("adaptive-bitrate", help: "Never exceed the source's bits per pixel after scaling.")
        static let maxDimension = OptionKey<LongestSide>(
            "max-dimension", valueName: "PIXELS", help: "Longest side of the picture, e.g. 1280, or 'original' to keep it.",
            parse: LongestSide.parse)
        static let maxSize = OptionKey<LongestSide>(
            "max-size", valueName: "PIXELS", help: "Old name of --max-dimension (pixels, not a file size); warns below 128.",
            parse: LongestSide.parse)
        static let fps = OptionKey<Double>(
            "fps", valueName: "FPS", help: "Frame rate limit, e.g. 24 or 30000/1001.", parse: ValueParsers.positiveDouble)
        static let keyint = OptionKey<Int>(
            "keyint", valueName: "FRAMES", help: "Maximum frames between keyframes.", parse: ValueParsers.positiveInteger)
        static let rotatePixels = FlagKey("rotate-pixels", help: "Rotate the pixels upright instead of keeping a rotation tag.")
        static let denoise = OptionKey<NoiseReduction>("denoise", valueName: "LEVEL", help: "Denoise before encoding.")
        static let autoLevels = FlagKey(
            "auto-levels", help: "Stretch each picture's levels to the full range (smoothed over a second, colours kept).")
        static let aspect = OptionKey<AspectRatio>(
            "aspect", valueName: "W:H",
            help: "Reframe to this shape (9:16, 4:5, 1:1, 16:9) with a camera that follows faces, motion or the subject, "
                + "shot by shot; never squashed or enlarged.",
            parse: { text, option throws(ArgumentError) in
                guard let ratio = AspectRatio(parsing: text) else {
                    throw .invalidValue(option: option, value: text, reason: "give a shape as W:H, e.g. 9:16, 4:5, 1:1 or 16:9")
                }
                return ratio
            })
        static let fill = OptionKey<FramingFill>(
            "fill", valueName: "FILL",
            help: "With --aspect: shots whose faces cannot share one window show the whole picture with a blurred copy "
                + "or black around it (default: follow the main face).")
        static let noContentAware = FlagKey(
            "no-content-aware", help: "Do not adapt keyframes and bit rate to measured motion and detail.")
    }

    /// The declarations, in help order.
    static let specs: [OptionSpec] = [
        Keys.codec.spec, Keys.speed.spec, Keys.tenBit.spec, Keys.hdr.spec, Keys.rateControl.spec, Keys.bitrate.spec, Keys.quality.spec,
        Keys.adaptiveBitrate.spec, Keys.maxDimension.spec, Keys.maxSize.spec, Keys.fps.spec, Keys.keyint.spec,
        Keys.rotatePixels.spec, Keys.denoise.spec, Keys.autoLevels.spec, Keys.aspect.spec, Keys.fill.spec,
        Keys.noContentAware.spec,
    ]

    let codec: VideoCodec?
    let speed: EncoderSpeed?
    let tenBit: Bool
    let hdr: HDRHandling?
    let rateControl: RateControl?
    let bitrate: Int?
    let quality: Double?
    let adaptiveBitrate: Bool
    let maxDimension: LongestSide?
    let maxSize: LongestSide?
    /// `--max-size` as typed, for messages.
    let maxSizeText: String?
    let fps: Double?
    let keyint: Int?
    let rotatePixels: Bool
    let denoise: NoiseReduction?
    let autoLevels: Bool
    let noContentAware: Bool
    let aspect: AspectRatio?
    let fill: FramingFill?

    /// Reads every option of the group.
    init(_ arguments: ParsedArguments) throws(ArgumentError) {
        codec = try arguments.value(Keys.codec)
        speed = try arguments.value(Keys.speed)
        tenBit = try arguments.isSet(Keys.tenBit)
        hdr = try arguments.value(Keys.hdr)
        rateControl = try arguments.value(Keys.rateControl)
        bitrate = try arguments.value(Keys.bitrate)
        quality = try arguments.value(Keys.quality)
        adaptiveBitrate = try arguments.isSet(Keys.adaptiveBitrate)
        maxDimension = try arguments.value(Keys.maxDimension)
        maxSize = try arguments.value(Keys.maxSize)
        maxSizeText = try arguments.text(Keys.maxSize)
        fps = try arguments.value(Keys.fps)
        keyint = try arguments.value(Keys.keyint)
        rotatePixels = try arguments.isSet(Keys.rotatePixels)
        denoise = try arguments.value(Keys.denoise)
        autoLevels = try arguments.isSet(Keys.autoLevels)
        noContentAware = try arguments.isSet(Keys.noContentAware)
        aspect = try arguments.value(Keys.aspect)
        fill = try arguments.value(Keys.fill)
    }

    /// The options given that decide the bit rate, in the order messages name them: a size or
    /// quality target contradicts each of them.
    var rateOptionsGiven: [String] {
        var names: [String] = []
        if bitrate != nil { names.append("bitrate") }
        if rateControl != nil { names.append("rate-control") }
        if quality != nil { names.append("quality") }
        return names
    }

    /// Sets codec, rate control, size, frame rate and picture settings; throws for options that
    /// contradict each other.
    func apply(to config: inout CompressionConfig) throws(ArgumentError) {
        if let codec {
            config.videoCodec = codec
            config.fallbackVideoCodec = nil
        }
        if let speed { config.encoderSpeed = speed }
        if tenBit { config.tenBit = true }
        if let hdr { config.hdr = hdr }
        switch rateControl {
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
        if let quality { config.videoQuality = Float(quality) }
        if adaptiveBitrate { config.useAdaptiveBitrate = true }
        if maxDimension != nil, let maxSizeText {
            throw .invalidValue(option: "--max-size", value: maxSizeText,
                                reason: "give --max-dimension or its old name --max-size, not both")
        }
        if let maxDimension { config.maxLongerDimension = maxDimension.configValue }
        if let maxSize {
            // Most people read "max size" as a file size: say what it does when the value looks like one.
            if case .pixels(let pixels) = maxSize, pixels < 128 {
                Console.error("--max-size \(pixels) makes the picture's longest side \(pixels) pixels (it is not a file "
                    + "size); --max-dimension is its name now")
            }
            config.maxLongerDimension = maxSize.configValue
        }
        if let fps { config.fps = Float(fps) }
        if let keyint { config.maxKeyFrameInterval = keyint }
        if rotatePixels { config.forceVisualEncodingDimensions = true }
        if let denoise { config.preprocessing.noiseReduction = denoise }
        if autoLevels { config.preprocessing.autoLevels = true }
        if noContentAware { config.contentAwareOptimization = false }
        if let fill, aspect == nil {
            throw .invalidValue(option: "--fill", value: fill.rawValue, reason: "fill goes with --aspect (the shape to fill)")
        }
        if let aspect { config.reframing = Reframing(aspect: aspect, fill: fill) }
    }
}
