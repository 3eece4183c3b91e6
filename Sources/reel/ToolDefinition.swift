import ReelArguments

/// The declaration of the `reel` tool: its version and its commands, in help order.
enum ToolDefinition {
    /// The version printed by `reel --version`.
    static let version = "0.1.0"

    /// Every command, in the order help lists them; each declares and reads its own options.
    static let commands: [any ReelCommand.Type] = [
        CompressCommand.self, HighlightsCommand.self, AnalyzeCommand.self, ReportCommand.self, SplitCommand.self,
        ThumbnailCommand.self, FacesCommand.self, PlanCommand.self, EncodeChunkCommand.self, AssembleCommand.self,
        PresetsCommand.self, ProbeCommand.self,
    ]

    /// The whole tool; `presetNames` are the names `--preset` accepts (built-in and user files).
    static func tool(presetNames: [String]) -> ToolSpec {
        ToolSpec(
            name: "reel",
            abstract: "Compress videos with sensible presets, inspect them, and batch them "
                + "over many files or machines.",
            version: version,
            commands: commands.map { $0.spec(presetNames: presetNames) })
    }

    /// The command that `arguments` run (its first name), if it is one of `commands`.
    static func command(for arguments: ParsedArguments) -> (any ReelCommand.Type)? {
        commands.first { $0.spec(presetNames: []).name == arguments.commandPath.first }
    }
}
