/// What the command line asked for: run a command, show help, or show the version.
public enum ParseOutcome: Sendable, Hashable {
    /// Run the command described by the parsed arguments.
    case run(ParsedArguments)
    /// Show help: the tool overview when `command` is nil, else that command's help.
    case help(command: String?)
    /// Show the tool's version.
    case version
}

/// The options and positionals given to one command, checked against its spec.
public struct ParsedArguments: Sendable, Hashable {
    /// The name of the command that was invoked.
    public let command: String
    /// Every positional argument, in the order given.
    public let positionals: [String]
    /// How many times each flag was given, keyed by long name.
    let flagCounts: [String: Int]
    /// Every value given for each option, in order, keyed by long name.
    let optionValues: [String: [String]]
    /// The positional values assigned to each positional spec, keyed by its name.
    let namedPositionals: [String: [String]]

    /// Creates parsed arguments directly, e.g. for tests of code that consumes them.
    public init(
        command: String,
        flags: [String: Int] = [:],
        values: [String: [String]] = [:],
        positionals: [String] = [],
        namedPositionals: [String: [String]] = [:]
    ) {
        self.command = command
        self.flagCounts = flags
        self.optionValues = values
        self.positionals = positionals
        self.namedPositionals = namedPositionals
    }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool {
        count(name) > 0
    }

    /// How many times the flag or option `--name` was given.
    public func count(_ name: String) -> Int {
        flagCounts[name] ?? optionValues[name]?.count ?? 0
    }

    /// The value of option `--name`, or nil when absent; the last one if it was repeated.
    public func value(_ name: String) -> String? {
        optionValues[name]?.last
    }

    /// Every value of option `--name`, in the order given; empty when absent.
    public func values(_ name: String) -> [String] {
        optionValues[name] ?? []
    }

    /// The value of `--name` converted by `parse`, or nil when absent.
    ///
    /// `parse` receives the text and the option's display name, e.g. `ValueParsers.bitrate`.
    public func value<T>(
        _ name: String, as parse: (String, String) throws(ArgumentError) -> T
    ) throws(ArgumentError) -> T? {
        guard let text = value(name) else { return nil }
        return try parse(text, "--" + name)
    }

    /// Every value of `--name` converted by `parse`, in the order given.
    public func values<T>(
        _ name: String, as parse: (String, String) throws(ArgumentError) -> T
    ) throws(ArgumentError) -> [T] {
        var result: [T] = []
        for text in values(name) {
            result.append(try parse(text, "--" + name))
        }
        return result
    }

    /// The first value assigned to the positional spec `name` (e.g. `"INPUT"`), if any.
    public func positional(_ name: String) -> String? {
        namedPositionals[name]?.first
    }

    /// Every value assigned to the positional spec `name`; several only for a variadic one.
    public func positionalValues(_ name: String) -> [String] {
        namedPositionals[name] ?? []
    }
}
