import ReelArguments

/// `--json` and `-q, --quiet`: what a command prints, and whether it shows progress.
struct ConsoleOptions: Sendable {
    /// What a command says the two flags do; nil leaves a flag out.
    struct Shape: Sendable {
        /// The help of `--json`, or nil when the command has no JSON output.
        var json: String?
        /// The help of `--quiet`, or nil when the command shows no progress.
        var quiet: String?

        /// JSON instead of text, and no progress on standard error: most commands.
        static let standard = Shape(json: "Print one JSON object instead of text.", quiet: "No progress on standard error.")
        /// JSON instead of text, and no progress to silence.
        static let jsonOnly = Shape(json: "Print one JSON object instead of text.", quiet: nil)
    }

    /// The keys, declared with each command's wording by `specs`.
    enum Keys {
        static let json = FlagKey("json", help: "Print one JSON object instead of text.")
        static let quiet = FlagKey("quiet", short: "q", help: "No progress on standard error.")
    }

    /// The declarations of the flags `shape` takes.
    static func specs(_ shape: Shape) -> [OptionSpec] {
        [shape.json.map { Keys.json.declared(help: $0).spec }, shape.quiet.map { Keys.quiet.declared(help: $0).spec }]
            .compactMap { $0 }
    }

    /// `--json`.
    let json: Bool
    /// `--quiet`.
    let quiet: Bool

    /// Reads the flags `shape` takes (the same shape `specs` declared).
    init(_ arguments: ParsedArguments, _ shape: Shape) throws(ArgumentError) {
        json = shape.json == nil ? false : try arguments.isSet(Keys.json)
        quiet = shape.quiet == nil ? false : try arguments.isSet(Keys.quiet)
    }

    /// Whether progress goes to standard error: not `--quiet`, and standard error a terminal.
    var showsProgress: Bool { !quiet && Console.errorIsTerminal }
}
