/// The declaration of a command's positional arguments, such as `INPUT` or `FILES...`.
public struct PositionalSpec: Sendable, Hashable {
    /// The placeholder shown in usage and help, e.g. `"INPUT"`.
    public var name: String
    /// The one-line help text; positionals with empty help are not listed under ARGUMENTS.
    public var help: String
    /// Whether the argument may be left out.
    public var isOptional: Bool
    /// Whether the argument takes every remaining positional value; only the last may be.
    public var isVariadic: Bool

    /// Creates a positional declaration.
    public init(
        name: String, help: String = "", isOptional: Bool = false, isVariadic: Bool = false
    ) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isVariadic = isVariadic
    }

    /// The positional as written in usage lines, e.g. `INPUT`, `[OUTPUT]`, `FILES...`.
    var synopsis: String {
        let base = isVariadic ? name + "..." : name
        return isOptional ? "[\(base)]" : base
    }
}

/// The declaration of one command such as `reel compress`, or of a subcommand such as the
/// `add` of `reel faces add`.
public struct CommandSpec: Sendable, Hashable {
    /// The command's name as typed after the tool name, e.g. `"compress"`.
    public var name: String
    /// The one-line summary shown in the command list.
    public var abstract: String
    /// Longer prose shown in the command's help; line breaks are kept, long lines wrapped.
    public var discussion: String
    /// Complete example invocations, each shown on its own line in help.
    public var examples: [String]
    /// The named options the command accepts, in help order.
    public var options: [OptionSpec]
    /// The positional arguments, in order: required ones, then optional ones, variadic last.
    public var positionals: [PositionalSpec]
    /// The subcommands, in help order, such as `add` of `faces`. A command with subcommands
    /// takes one of them as its first argument, and has no options or positionals of its own:
    /// each subcommand declares its own.
    public var subcommands: [CommandSpec]

    /// Creates a command declaration.
    public init(
        name: String,
        abstract: String,
        discussion: String = "",
        examples: [String] = [],
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [],
        subcommands: [CommandSpec] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.examples = examples
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
    }

    /// The subcommand named `name`, if any.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The option declared with long name `name`, if any.
    public func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The option declared with short name `short`, if any.
    func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }

    /// The positionals as written in usage lines and error messages, e.g. `INPUT [OUTPUT]`.
    var positionalSynopsis: String {
        positionals.map(\.synopsis).joined(separator: " ")
    }
}

/// The declaration of the whole tool: its name, version and commands.
public struct ToolSpec: Sendable, Hashable {
    /// The executable's name, e.g. `"reel"`.
    public var name: String
    /// The one-line summary shown at the top of the overview.
    public var abstract: String
    /// The version string printed for `--version`.
    public var version: String
    /// The commands, in the order help lists them.
    public var commands: [CommandSpec]

    /// Creates a tool declaration.
    public init(name: String, abstract: String, version: String, commands: [CommandSpec]) {
        self.name = name
        self.abstract = abstract
        self.version = version
        self.commands = commands
    }

    /// The command named `name`, if any.
    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// The command or subcommand at `path`, e.g. `["faces", "add"]`, if any.
    public func command(at path: [String]) -> CommandSpec? {
        guard let first = path.first, var command = command(named: first) else { return nil }
        for name in path.dropFirst() {
            guard let subcommand = command.subcommand(named: name) else { return nil }
            command = subcommand
        }
        return command
    }
}
