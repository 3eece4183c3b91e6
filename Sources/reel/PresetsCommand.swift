import ReelArguments
import ReelKit

/// `reel presets`: every preset with its numbers, as text or JSON.
struct PresetsCommand: ReelCommand {
    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "presets",
            abstract: "List every preset with its numbers (built-in and user files).",
            discussion: """
                Built-in presets are low, medium, high, social and messaging. User presets are the \
                *.json files in $REEL_PRESETS_DIR, else $XDG_CONFIG_HOME/reel/presets, else \
                ~/.config/reel/presets; they use the format of the built-in files and a user \
                preset replaces a built-in one of the same name.
                """,
            examples: ["reel presets", "reel presets --json | jq '.presets[].name'"],
            options: ConsoleOptions.specs(.jsonOnly))
    }

    /// Listing presets is quick: an interrupt ends it the usual way.
    static var handlesSignals: Bool { false }

    /// The presets to list.
    let catalog: PresetCatalog
    let console: ConsoleOptions

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        do throws(ArgumentError) {
            console = try ConsoleOptions(arguments, .jsonOnly)
        } catch {
            throw CommandFailure(error)
        }
        self.catalog = catalog
    }

    /// Prints the presets; unusable user files are reported on standard error (exit status 1).
    func run(signals: SignalHandling) async -> Int32 {
        if console.json {
            Console.printOut(json().rendered())
        } else {
            Console.printOut(catalog.entries.map(Self.text).joined(separator: "\n\n"))
        }
        for problem in catalog.problems { Console.error(problem) }
        return catalog.problems.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// The `--json` object: `{presets, userDirectory, problems}`.
    private func json() -> JSONValue {
        .object([
            ("presets", .array(catalog.entries.map(Self.json))),
            ("userDirectory", .string(catalog.userDirectory.path)),
            ("problems", .array(catalog.problems.map { .string($0) })),
        ])
    }

    /// One preset as JSON.
    private static func json(_ entry: PresetEntry) -> JSONValue {
        let config = entry.preset.config
        return .object([
            ("name", .string(entry.preset.name)),
            ("source", .string(entry.sourceDescription)),
            ("summary", .string(entry.preset.summary)),
            ("rateControlReason", .init(entry.preset.rateControlReason)),
            ("video", .object([
                ("codec", .string(config.videoCodec.rawValue)),
                ("fallbackCodec", .init(config.fallbackVideoCodec?.rawValue)),
                ("maxLongerDimension", .init(config.maxLongerDimension)),
                ("fps", .init(config.fps)),
                ("rateControl", .string(rateControl(config).rawValue)),
                ("bitrate", .init(config.useExplicitBitrate ? config.videoBitrate : nil)),
                ("quality", .init(config.videoQuality)),
                ("maxKeyFrameInterval", .init(config.maxKeyFrameInterval)),
                ("adaptiveBitrate", .bool(config.useAdaptiveBitrate)),
                ("speed", .string(config.encoderSpeed.rawValue)),
                ("tenBit", .bool(config.tenBit)),
            ])),
            ("audio", .object([
                ("codec", .string(config.audioCodec.rawValue)),
                ("bitrate", .init(config.audioBitrate)),
                ("sampleRate", .init(config.audioSampleRate)),
                ("channels", .init(config.audioChannels)),
            ])),
            ("denoise", .string(config.preprocessing.noiseReduction.rawValue)),
            ("contentAware", .bool(config.contentAwareOptimization)),
            ("format", .string(config.fileType.rawValue)),
        ])
    }

    /// One preset as a few lines of text.
    private static func text(_ entry: PresetEntry) -> String {
        let config = entry.preset.config
        var video = config.videoCodec.rawValue + (config.tenBit ? " 10-bit" : "")
        if let fallback = config.fallbackVideoCodec { video += " (else \(fallback.rawValue))" }
        if let size = config.maxLongerDimension { video += ", longest side \(size) px" }
        video += ", \(Formatting.frameRate(Double(config.fps))) fps"
        video += ", speed \(config.encoderSpeed.rawValue)"
        var rate = rateText(config) + ", keyframe every \(config.maxKeyFrameInterval) frames"
        if config.useAdaptiveBitrate { rate += ", adaptive bit rate" }
        var audio = "none"
        if config.audioBitrate > 0 {
            let channels = config.audioChannels.map { $0 == 1 ? "mono" : "stereo" }
                ?? "source channels (at most 2)"
            let bitrate = Formatting.bitrate(Double(config.audioBitrate))
            audio = "\(config.audioCodec.rawValue) \(bitrate), "
                + "\(config.audioSampleRate) Hz, \(channels)"
        }
        let other = "denoise \(config.preprocessing.noiseReduction.rawValue), content-aware "
            + (config.contentAwareOptimization ? "on" : "off") + ", \(config.fileType.rawValue)"
        var lines = ["\(entry.preset.name) (\(entry.sourceDescription))"]
        if !entry.preset.summary.isEmpty { lines.append("  " + entry.preset.summary) }
        lines += [("video", video), ("rate", rate), ("audio", audio), ("other", other)]
            .map { "  " + Formatting.padded($0.0, 7) + $0.1 }
        return lines.joined(separator: "\n")
    }

    /// The `--rate-control` mode a configuration amounts to.
    private static func rateControl(_ config: CompressionConfig) -> RateControl {
        guard config.useExplicitBitrate else { return .quality }
        return config.bitrateMode == .average ? .average : .capped
    }

    /// The rate control in words, with its numbers.
    private static func rateText(_ config: CompressionConfig) -> String {
        let quality = String(format: "%.2f", config.videoQuality)
        let bitrate = Formatting.bitrate(Double(config.videoBitrate))
        switch rateControl(config) {
        case .quality: return "constant quality \(quality)"
        case .capped: return "quality \(quality) capped at \(bitrate)"
        case .average: return "average \(bitrate)"
        }
    }
}
