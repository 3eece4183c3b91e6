import ReelArguments

/// One command of `reel`: its declaration, its options read into typed values, and its run.
protocol ReelCommand: Sendable {
    /// The command's declaration; `presetNames` are the names `--preset` accepts.
    static func spec(presetNames: [String]) -> CommandSpec

    /// Whether SIGINT and SIGTERM stop the command cleanly (128 + the signal); quick commands
    /// leave the signals their default.
    static var handlesSignals: Bool { get }

    /// Reads every option the command declares, and nothing else, before any work starts; a
    /// bad value or combination is a usage failure.
    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure)

    /// Runs the command and returns the exit status; `signals` tells whether it was stopped.
    func run(signals: SignalHandling) async -> Int32

    /// Stops work the running task cannot see (a compressor's), when a signal arrives.
    func cancel()
}

extension ReelCommand {
    static var handlesSignals: Bool { true }

    func cancel() {}
}
