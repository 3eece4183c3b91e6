/// Whether an option is a bare switch or is followed by a value.
public enum OptionKind: Sendable, Hashable {
    /// A switch such as `--overwrite`; present or absent, never followed by a value.
    case flag
    /// An option such as `--preset medium` or `--preset=medium` that carries one value.
    case value
}

/// The declaration of one named option of a command.
public struct OptionSpec: Sendable, Hashable {
    /// The long name without dashes, e.g. `"preset"` for `--preset`.
    public var name: String
    /// The optional one-letter short name without the dash, e.g. `"o"` for `-o`.
    public var short: Character?
    /// The placeholder shown in help for the value, e.g. `"NAME"`; unused for flags.
    public var valueName: String
    /// The one-line help text.
    public var help: String
    /// Whether the option is a flag or takes a value.
    public var kind: OptionKind
    /// Whether the option may be given more than once.
    public var isRepeatable: Bool
    /// The only values the option accepts, in display order; empty means any value.
    public var allowedValues: [String]

    /// Creates an option declaration from all of its parts.
    public init(
        name: String,
        short: Character? = nil,
        valueName: String = "VALUE",
        help: String,
        kind: OptionKind,
        isRepeatable: Bool = false,
        allowedValues: [String] = []
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.kind = kind
        self.isRepeatable = isRepeatable
        self.allowedValues = allowedValues
    }

    /// Declares a flag such as `--overwrite`.
    public static func flag(
        _ name: String, short: Character? = nil, help: String, repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, help: help, kind: .flag, isRepeatable: repeatable)
    }

    /// Declares an option that takes a value, such as `--preset NAME`.
    public static func value(
        _ name: String,
        short: Character? = nil,
        valueName: String,
        help: String,
        repeatable: Bool = false,
        allowedValues: [String] = []
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueName: valueName, help: help, kind: .value,
            isRepeatable: repeatable, allowedValues: allowedValues
        )
    }

    /// The canonical spelling used in messages, e.g. `--preset`.
    public var displayName: String { "--" + name }

    /// The option as written in help and usage, e.g. `-o, --output PATH`.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += displayName
        if kind == .value { text += " " + valueName }
        return text
    }
}
