import ReelArguments

/// The declaration of the `reel` tool: its commands, options, help text and examples.
enum ToolDefinition {
    /// The version printed by `reel --version`.
    static let version = "0.1.0"

    /// The whole tool; `presetNames` are the names `--preset` accepts (built-in and user files).
    static func tool(presetNames: [String]) -> ToolSpec {
        ToolSpec(
            name: "reel",
            abstract: "Compress videos with sensible presets, inspect them, and batch them "
                + "over many files or machines.",
            version: version,
            commands: [
                compress(presetNames: presetNames), HighlightsCommand.spec(presetNames: presetNames),
                AnalyzeCommand.spec, ReportCommand.spec, SplitCommand.spec(presetNames: presetNames), ThumbnailCommand.spec,
                FacesCommand.spec, PlanCommand.spec(presetNames: presetNames), EncodeChunkCommand.spec, AssembleCommand.spec,
                presets, probe,
            ])
    }

    /// `reel presets`.
    static let presets = CommandSpec(
        name: "presets",
        abstract: "List every preset with its numbers (built-in and user files).",
        discussion: """
            Built-in presets are low, medium, high, social and messaging. User presets are the \
            *.json files in $REEL_PRESETS_DIR, else $XDG_CONFIG_HOME/reel/presets, else \
            ~/.config/reel/presets; they use the format of the built-in files and a user \
            preset replaces a built-in one of the same name.
            """,
        examples: ["reel presets", "reel presets --json | jq '.presets[].name'"],
        options: [.flag("json", help: "Print one JSON object instead of text.")])

    /// `reel probe`.
    static let probe = CommandSpec(
        name: "probe",
        abstract: "Describe a media file: container, duration, size and every stream.",
        discussion: """
            Lists each stream with its codec, dimensions (coded and as displayed after \
            rotation), frame rate and whether it varies, bit rate, color and HDR tags, audio \
            rate and channels. Tracks that are not the main picture or sound (depth or \
            disparity video, data, cover art) are marked with their role.
            """,
        examples: ["reel probe holiday.mov", "reel probe holiday.mov --json | jq .streams"],
        options: [.flag("json", help: "Print one JSON object instead of text.")],
        positionals: [PositionalSpec(name: "INPUT", help: "The file to describe.")])

    /// `reel compress`.
    static func compress(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "compress",
            abstract: "Compress one or more videos with a preset and optional overrides.",
            discussion: CompressHelp.discussion,
            examples: CompressHelp.examples,
            options: CompressHelp.options(presetNames: presetNames),
            positionals: [
                PositionalSpec(
                    name: "INPUT",
                    help: "Video files or directories (their video files, not recursively).",
                    isVariadic: true),
            ])
    }
}
