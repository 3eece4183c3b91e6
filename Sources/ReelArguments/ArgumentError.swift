/// A command-line mistake, described in one line that says what to type instead.
public enum ArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No command was given; `available` lists the tool's commands.
    case missingCommand(available: [String])
    /// The command name is not known; `suggestion` is the closest known command, if close.
    case unknownCommand(String, suggestion: String?, available: [String])
    /// The option is not known to `command` (nil at tool level); `suggestion` is e.g. `--preset`.
    case unknownOption(String, command: String?, suggestion: String?)
    /// The option takes a value but none followed it.
    case missingValue(option: String, valueName: String, allowedValues: [String])
    /// A flag was given a value with `--flag=value`.
    case unexpectedValue(option: String, value: String)
    /// The value is not one of the option's allowed values.
    case invalidChoice(option: String, value: String, allowedValues: [String], suggestion: String?)
    /// A non-repeatable option was given more than once.
    case repeatedOption(String)
    /// More positional arguments were given than `command` takes (`expected` is its synopsis).
    case unexpectedPositional(String, command: String, expected: String)
    /// A required positional argument is missing.
    case missingPositional(String, command: String)
    /// A value parser rejected `value`; `reason` says why and shows an accepted example.
    case invalidValue(option: String, value: String, reason: String)
    /// `command` has subcommands and none was given; `available` lists them.
    case missingSubcommand(command: String, available: [String])
    /// The subcommand name is not one of `command`'s; `suggestion` is the closest, if close.
    case unknownSubcommand(String, command: String, suggestion: String?, available: [String])
    /// The tool's own code read an option that `command` does not declare: a mistake in the
    /// tool, not on the command line.
    case undeclaredOption(String, command: String)

    /// The message, without any `error:` prefix.
    public var description: String {
        switch self {
        case .missingCommand(let available):
            return "missing command; expected one of: \(available.joined(separator: ", "))"
        case .unknownCommand(let name, let suggestion, let available):
            if let suggestion {
                return "unknown command '\(name)'; did you mean '\(suggestion)'?"
            }
            return "unknown command '\(name)'; expected one of: "
                + available.joined(separator: ", ")
        case .unknownOption(let token, let command, let suggestion):
            let context = command.map { " for '\($0)'" } ?? ""
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "unknown option '\(token)'\(context)\(hint)"
        case .missingValue(let option, let valueName, let allowed):
            let choices = allowed.isEmpty ? "" : " (one of: \(allowed.joined(separator: ", ")))"
            return "missing value for option '\(option)'; expected \(valueName)\(choices)"
        case .unexpectedValue(let option, let value):
            return "option '\(option)' is a flag and takes no value; remove '=\(value)'"
        case .invalidChoice(let option, let value, let allowed, let suggestion):
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            return "invalid value '\(value)' for '\(option)'; expected one of: "
                + allowed.joined(separator: ", ") + hint
        case .repeatedOption(let option):
            return "option '\(option)' was given more than once; give it once"
        case .unexpectedPositional(let value, let command, let expected):
            let takes = expected.isEmpty ? "no arguments" : expected
            return "unexpected extra argument '\(value)'; '\(command)' takes \(takes)"
        case .missingPositional(let name, let command):
            return "missing required argument \(name) for '\(command)'"
        case .invalidValue(let option, let value, let reason):
            return "invalid value '\(value)' for '\(option)': \(reason)"
        case .missingSubcommand(let command, let available):
            return "missing subcommand for '\(command)'; expected one of: "
                + available.joined(separator: ", ")
        case .unknownSubcommand(let name, let command, let suggestion, let available):
            if let suggestion {
                return "unknown subcommand '\(name)' for '\(command)'; did you mean '\(suggestion)'?"
            }
            return "unknown subcommand '\(name)' for '\(command)'; expected one of: "
                + available.joined(separator: ", ")
        case .undeclaredOption(let option, let command):
            return "internal error: '\(command)' reads option '\(option)', which it does not declare"
        }
    }
}
