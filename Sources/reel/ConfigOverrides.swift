import ReelArguments
import ReelKit

/// The `CompressionConfig` a command's options ask for: a preset, then the option groups the
/// command takes, each applying its own part.
///
/// Every encoding command takes the preset, picture and audio groups; the others it lists in
/// `Groups` on purpose, so that an option added to one group reaches exactly the commands that
/// include it.
struct ConfigOverrides: Sendable {
    /// The optional groups a command takes.
    struct Groups: OptionSet, Sendable {
        let rawValue: Int

        /// `--target-quality`, `--target-size`.
        static let target = Groups(rawValue: 1 << 0)
        /// `--start`, `--end`.
        static let trim = Groups(rawValue: 1 << 1)
        /// `--ranges` (with `trim`).
        static let ranges = Groups(rawValue: 1 << 2)
        /// `--crossfade`, `--fade`.
        static let join = Groups(rawValue: 1 << 3)
        /// `--copy`.
        static let copy = Groups(rawValue: 1 << 4)
        /// `--reducer`, `--seed`.
        static let reducer = Groups(rawValue: 1 << 5)
        /// `--cut-silence`, `--cut-still` and their settings (with `trim`: the parts looked in).
        static let pauses = Groups(rawValue: 1 << 6)
        /// `--fade` alone (`join` includes it): a chunked encode fades but has no joins.
        static let fade = Groups(rawValue: 1 << 7)
    }

    /// The declarations of the groups, in help order; `presetNames` are the names `--preset`
    /// accepts.
    static func specs(presetNames: [String], _ groups: Groups) -> [OptionSpec] {
        var specs = PresetOptions.specs(presetNames: presetNames) + PictureOptions.specs
        if groups.contains(.target) { specs += TargetOptions.specs }
        if groups.contains(.reducer) { specs += ReducerOptions.specs }
        if groups.contains(.trim) { specs += TrimOptions.specs(ranges: groups.contains(.ranges)) }
        if groups.contains(.pauses) { specs += PauseCutOptions.specs }
        if groups.contains(.join) { specs.append(JoinOptions.crossfade.spec) }
        if !groups.isDisjoint(with: [.join, .fade]) { specs.append(JoinOptions.fade.spec) }
        if groups.contains(.copy) { specs.append(CopyOption.copy.spec) }
        return specs + AudioOptions.specs
    }

    let preset: PresetOptions
    let picture: PictureOptions
    let audio: AudioOptions
    let target: TargetOptions?
    let reducer: ReducerOptions?
    let trim: TrimOptions?
    let join: JoinOptions?
    let copy: CopyOption?
    let pauses: PauseCutOptions?

    /// Reads the options of the preset, picture and audio groups and of `groups` (the same
    /// groups `specs` declared).
    init(_ arguments: ParsedArguments, _ groups: Groups) throws(CommandFailure) {
        preset = try PresetOptions(arguments)
        reducer = groups.contains(.reducer) ? try ReducerOptions(arguments) : nil
        pauses = groups.contains(.pauses) ? try PauseCutOptions(arguments) : nil
        do throws(ArgumentError) {
            picture = try PictureOptions(arguments)
            audio = try AudioOptions(arguments)
            target = groups.contains(.target) ? try TargetOptions(arguments) : nil
            trim = groups.contains(.trim) ? try TrimOptions(arguments, ranges: groups.contains(.ranges)) : nil
            join = !groups.isDisjoint(with: [.join, .fade])
                ? try JoinOptions(arguments, readsCrossfade: groups.contains(.join)) : nil
            copy = groups.contains(.copy) ? try CopyOption(arguments) : nil
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The configuration: the preset's, overridden by each group; not yet checked as a whole
    /// (the command adds what is its own, then checks it once with `checkedForRun()`).
    ///
    /// Throws a usage failure for contradicting options and a plain failure when
    /// `--preset-file` cannot be read.
    func config(catalog: PresetCatalog) throws(CommandFailure) -> CompressionConfig {
        var config = try preset.config(catalog: catalog)
        do throws(ArgumentError) {
            try picture.apply(to: &config)
            try target?.apply(
                to: &config, rateOptions: picture.rateOptionsGiven, crossfade: join?.crossfade != nil,
                copy: copy?.isSet ?? false)
            copy?.apply(to: &config)
            join?.apply(to: &config)
            try trim?.apply(to: &config)
            try audio.apply(to: &config)
        } catch {
            throw CommandFailure(error)
        }
        try pauses?.apply(to: &config, copy: copy?.isSet ?? false)
        // A preset made for GIF or WebP keeps its own frame rate and size.
        if preset.format != nil { applyFormatDefaults(to: &config) }
        return config
    }

    /// For a GIF or WebP chosen by `--format` or `-o`, the format's frame rate and size (15 fps,
    /// 480 pixels) where `--fps` and `--max-dimension` (`--max-size`) were not given: the
    /// preset's are for video.
    ///
    /// For a WebM, AV1 and Opus in place of a preset's H.264/HEVC and AAC where `--codec` and
    /// `--audio-codec` were not given (`CompressionConfig.applyWebMDefaults`).
    func applyFormatDefaults(to config: inout CompressionConfig) {
        config.applyAnimatedImageDefaults(
            frameRate: picture.fps == nil, size: picture.maxDimension == nil && picture.maxSize == nil)
        config.applyWebMDefaults(videoCodec: picture.codec == nil, audioCodec: audio.codec == nil)
    }

    /// How frames are dropped to reach a lower frame rate: `--reducer`, else evenly.
    var frameReducer: any VideoFrameReducer {
        reducer?.reducer ?? ReduceFrameEvenlySpaced()
    }
}

extension CompressionConfig {
    /// These settings checked once for the whole run (every file of a batch, every piece of a
    /// split): a value the library refuses is a usage error, before any work.
    func checkedForRun() throws(CommandFailure) -> ValidatedConfig {
        do throws(ReelError) {
            return try validated()
        } catch {
            throw .usage(error.description)
        }
    }
}
