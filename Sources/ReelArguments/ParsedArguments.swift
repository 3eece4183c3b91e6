/// What the command line asked for: run a command, show help, or show the version.
public enum ParseOutcome: Sendable, Hashable {
    /// Run the command described by the parsed arguments.
    case run(ParsedArguments)
    /// Show help: the tool overview when `command` is nil, else that command's help; a
    /// subcommand is named with its command, e.g. `"faces add"`.
    case help(command: String?)
    /// Show the tool's version.
    case version
}

/// The options and positionals given to one command, checked against its spec.
///
/// Options are read through the typed keys the command declares (`OptionKey`, `FlagKey`);
/// reading a key the command does not declare throws `ArgumentError.undeclaredOption`, so a
/// mistake in the tool's own code is an error rather than an option that is never given.
public struct ParsedArguments: Sendable, Hashable {
    /// The names of the command that was invoked, e.g. `["compress"]` or `["faces", "add"]`.
    public let commandPath: [String]
    /// Every positional argument, in the order given.
    public let positionals: [String]
    /// The kind of each option the command declares, keyed by long name.
    let declaredOptions: [String: OptionKind]
    /// How many times each flag was given, keyed by long name.
    let flagCounts: [String: Int]
    /// Every value given for each option, in order, keyed by long name.
    let optionValues: [String: [String]]
    /// The positional values assigned to each positional spec, keyed by its name.
    let namedPositionals: [String: [String]]

    /// Creates parsed arguments directly, e.g. for tests of code that consumes them.
    ///
    /// `options` are the command's declared options: only they can be read.
    public init(
        commandPath: [String],
        declaring options: [OptionSpec],
        flags: [String: Int] = [:],
        values: [String: [String]] = [:],
        positionals: [String] = [],
        namedPositionals: [String: [String]] = [:]
    ) {
        self.commandPath = commandPath
        self.declaredOptions = Dictionary(
            options.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
        self.flagCounts = flags
        self.optionValues = values
        self.positionals = positionals
        self.namedPositionals = namedPositionals
    }

    /// The command as typed after the tool's name, e.g. `"compress"` or `"faces add"`.
    public var command: String { commandPath.joined(separator: " ") }

    /// The value of `key` converted to its type, or nil when absent; the last one if repeated.
    public func value<Value>(_ key: OptionKey<Value>) throws(ArgumentError) -> Value? {
        guard let text = try text(key) else { return nil }
        return try key.converted(text)
    }

    /// Every value of `key`, converted, in the order given; empty when absent.
    public func values<Value>(_ key: OptionKey<Value>) throws(ArgumentError) -> [Value] {
        try requireDeclared(key.spec)
        var result: [Value] = []
        for text in optionValues[key.name] ?? [] {
            result.append(try key.converted(text))
        }
        return result
    }

    /// The value of `key` exactly as typed, for messages; nil when absent.
    public func text<Value>(_ key: OptionKey<Value>) throws(ArgumentError) -> String? {
        try requireDeclared(key.spec)
        return optionValues[key.name]?.last
    }

    /// Whether the flag was given.
    public func isSet(_ flag: FlagKey) throws(ArgumentError) -> Bool {
        try count(flag) > 0
    }

    /// How many times the flag was given.
    public func count(_ flag: FlagKey) throws(ArgumentError) -> Int {
        try requireDeclared(flag.spec)
        return flagCounts[flag.name] ?? 0
    }

    /// Throws unless the command declares an option of this name and kind.
    private func requireDeclared(_ spec: OptionSpec) throws(ArgumentError) {
        guard declaredOptions[spec.name] == spec.kind else {
            throw .undeclaredOption(spec.displayName, command: command)
        }
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
