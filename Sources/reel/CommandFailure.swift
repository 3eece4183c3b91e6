import ReelArguments

/// The process exit statuses `reel` uses.
enum ExitStatus {
    /// Everything asked for was done.
    static let success: Int32 = 0
    /// A file could not be read, compressed or written.
    static let failure: Int32 = 1
    /// The command line was wrong.
    static let usage: Int32 = 2
    /// `reel` itself is wrong: an unsound spec, or a read of an option it does not declare
    /// (BSD's EX_SOFTWARE).
    static let internalError: Int32 = 70

    /// The status after being stopped by `signal` (130 for SIGINT, 143 for SIGTERM).
    static func interrupted(by signal: Int32) -> Int32 { 128 + signal }
}

/// A problem that ends a command before any file is processed: its message and exit status.
struct CommandFailure: Error {
    /// The one-line message, without the `reel: ` prefix.
    let message: String
    /// The exit status to end with.
    let status: Int32
    /// The parser's error this failure reports, if it reports one.
    var argumentError: ArgumentError?

    /// A mistake on the command line (exit status 2).
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(message: message, status: ExitStatus.usage)
    }

    /// A failure to read or use a file (exit status 1).
    static func failure(_ message: String) -> CommandFailure {
        CommandFailure(message: message, status: ExitStatus.failure)
    }

    /// The parser's message for a bad argument, as a usage failure; a read of an option the
    /// command does not declare is an internal error instead.
    init(_ error: ArgumentError) {
        if case .undeclaredOption = error {
            self.init(message: error.description, status: ExitStatus.internalError)
        } else {
            self = .usage(error.description)
        }
        argumentError = error
    }

    /// Creates a failure from its parts.
    init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }
}
