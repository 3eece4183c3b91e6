/// Renders the tool overview and per-command help as plain text wrapped to a fixed width.
public struct HelpFormatter: Sendable {
    /// The tool whose help is rendered.
    public var tool: ToolSpec
    /// The maximum line width; 80 by default.
    public var width: Int

    /// The widest the left column of option and command lists may grow.
    private let maxLeftWidth = 28

    /// Creates a formatter for `tool` wrapping at `width` columns.
    public init(tool: ToolSpec, width: Int = 80) {
        self.tool = tool
        self.width = width
    }

    /// The text printed for `--version`, e.g. `reel 1.0.0`.
    public var versionText: String { "\(tool.name) \(tool.version)" }

    /// The help a `ParseOutcome.help` asks for: the overview when `name` is nil or unknown.
    ///
    /// A subcommand is named with its command, e.g. `"faces add"`.
    public func help(forCommandNamed name: String?) -> String {
        let path = name.map { $0.split(separator: " ").map(String.init) } ?? []
        guard let command = tool.command(at: path) else { return overview() }
        return help(for: command, at: path)
    }

    /// The tool overview: abstract, usage, commands, tool options and how to get more help.
    public func overview() -> String {
        var lines = wrapped("OVERVIEW: " + tool.abstract)
        lines += [""] + wrapped("USAGE: \(tool.name) COMMAND [OPTIONS]")
        var rows = tool.commands.map { (left: $0.name, right: $0.abstract) }
        rows.append((left: "help", right: "Show help for a command."))
        lines += ["", "COMMANDS:"]
        lines += TextLayout.columns(rows, indent: 2, maxLeftWidth: maxLeftWidth, width: width)
        lines += ["", "OPTIONS:"]
        lines += TextLayout.columns(
            [(left: "-h, --help", right: "Show this help."),
             (left: "    --version", right: "Show the version.")],
            indent: 2, maxLeftWidth: maxLeftWidth, width: width)
        lines += [""] + wrapped(
            "See '\(tool.name) help COMMAND' or '\(tool.name) COMMAND --help' for a command's "
                + "arguments and options.")
        return lines.joined(separator: "\n")
    }

    /// A command's help: abstract, discussion, usage, arguments, options and examples.
    public func help(for command: CommandSpec) -> String {
        help(for: command, at: [command.name])
    }

    /// The help of the command or subcommand at `path` (its names from the tool's down).
    private func help(for command: CommandSpec, at path: [String]) -> String {
        var lines = wrapped("OVERVIEW: " + command.abstract)
        if !command.discussion.isEmpty {
            lines += [""] + TextLayout.wrapParagraphs(command.discussion, width: width)
        }
        lines += [""] + usageLines(for: command, at: path)
        if !command.subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"]
            lines += TextLayout.columns(
                command.subcommands.map { (left: $0.name, right: $0.abstract) },
                indent: 2, maxLeftWidth: maxLeftWidth, width: width)
        }
        let described = command.positionals.filter { !$0.help.isEmpty }
        if !described.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += TextLayout.columns(
                described.map { (left: $0.synopsis, right: $0.help) },
                indent: 2, maxLeftWidth: maxLeftWidth, width: width)
        }
        lines += ["", "OPTIONS:"]
        var rows = command.options.map { (left: Self.optionColumn($0), right: Self.optionHelp($0)) }
        rows.append((left: "-h, --help", right: "Show help for this command."))
        lines += TextLayout.columns(rows, indent: 2, maxLeftWidth: maxLeftWidth, width: width)
        if !command.examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            for example in command.examples {
                lines += TextLayout.wrapCommand(example, width: width, indent: 2)
            }
        }
        if !command.subcommands.isEmpty {
            let name = "\(tool.name) " + path.joined(separator: " ")
            lines += [""] + wrapped(
                "See '\(tool.name) help \(path.joined(separator: " ")) SUBCOMMAND' or '\(name) SUBCOMMAND "
                    + "--help' for a subcommand's arguments and options.")
        }
        return lines.joined(separator: "\n")
    }

    /// The command's usage, e.g. `USAGE: reel compress [--preset NAME] INPUT`, wrapped so
    /// that continuation lines align under the first option.
    public func usage(for command: CommandSpec) -> String {
        usageLines(for: command, at: [command.name]).joined(separator: "\n")
    }

    /// The usage as wrapped lines; a command with subcommands takes one first.
    private func usageLines(for command: CommandSpec, at path: [String]) -> [String] {
        var words = command.options.map(Self.usageElement)
        words += command.positionals.map(\.synopsis)
        if !command.subcommands.isEmpty { words += ["SUBCOMMAND", "[OPTIONS]"] }
        let lead = "USAGE: \(tool.name) " + path.joined(separator: " ")
        let continuation = String(repeating: " ", count: lead.count + 1)
        return TextLayout.wrap(
            words: [lead] + words, width: width, firstPrefix: "", restPrefix: continuation)
    }

    /// An option in the usage line, e.g. `[--preset NAME]` or `[--range RANGES ...]`.
    private static func usageElement(_ option: OptionSpec) -> String {
        var text = option.displayName
        if option.kind == .value { text += " " + option.valueName }
        if option.isRepeatable { text += " ..." }
        return "[\(text)]"
    }

    /// An option's left column, with long names aligned whether or not a short name exists.
    private static func optionColumn(_ option: OptionSpec) -> String {
        option.short == nil ? "    " + option.synopsis : option.synopsis
    }

    /// An option's right column: its help, its allowed values, and whether it repeats.
    private static func optionHelp(_ option: OptionSpec) -> String {
        var text = option.help
        if !option.allowedValues.isEmpty {
            text += " (one of: \(option.allowedValues.joined(separator: ", ")))"
        }
        if option.isRepeatable { text += " (repeatable)" }
        return text
    }

    /// `text` wrapped to the width with no indentation.
    private func wrapped(_ text: String) -> [String] {
        TextLayout.wrap(text, width: width, firstPrefix: "", restPrefix: "")
    }
}
