extension ToolSpec {
    /// Parses `arguments` (argv without the program name) into what the user asked for.
    ///
    /// `--help` or `-h` anywhere before `--` asks for help, as does `help [COMMAND]`;
    /// `--version` as the first argument asks for the version. A command with subcommands
    /// takes one as its next argument (`faces add ...`), and help names it the same way
    /// (`help faces add`).
    public func parse(_ arguments: [String]) throws(ArgumentError) -> ParseOutcome {
        guard let first = arguments.first else {
            throw .missingCommand(available: commands.map(\.name))
        }
        if CommandParser.isHelp(first) { return .help(command: nil) }
        if first == "--version" { return .version }
        if first == "help" { return try parseHelpRequest(Array(arguments.dropFirst())) }
        if first.hasPrefix("-") {
            let name = String(first.drop { $0 == "-" }.prefix { $0 != "=" })
            let suggestion = Suggestions.closest(to: name, among: ["help", "version"])
            throw .unknownOption(first, command: nil, suggestion: suggestion.map { "--" + $0 })
        }
        let command = try resolveCommand(first)
        return try parse(Array(arguments.dropFirst()), for: command, at: [command.name])
    }

    /// Parses what follows the command at `path`: its subcommand and what follows that, or
    /// its own options and positionals.
    private func parse(
        _ rest: [String], for command: CommandSpec, at path: [String]
    ) throws(ArgumentError) -> ParseOutcome {
        let name = path.joined(separator: " ")
        guard !command.subcommands.isEmpty else {
            if CommandParser.asksForHelp(rest) { return .help(command: name) }
            return .run(try CommandParser(spec: command, path: path).parse(rest))
        }
        guard let next = rest.first, !CommandParser.looksLikeOption(next) else {
            if CommandParser.asksForHelp(rest) { return .help(command: name) }
            throw .missingSubcommand(command: name, available: command.subcommands.map(\.name))
        }
        let subcommand = try resolveSubcommand(next, of: command, at: path)
        return try parse(Array(rest.dropFirst()), for: subcommand, at: path + [next])
    }

    /// Handles `help`, `help COMMAND` and `help COMMAND SUBCOMMAND`.
    private func parseHelpRequest(_ rest: [String]) throws(ArgumentError) -> ParseOutcome {
        guard let name = rest.first, !CommandParser.isHelp(name) else { return .help(command: nil) }
        var command = try resolveCommand(name)
        var path = [name]
        for word in rest.dropFirst() {
            if CommandParser.isHelp(word) { break }
            guard !command.subcommands.isEmpty else {
                throw .unexpectedPositional(word, command: "help", expected: "COMMAND")
            }
            command = try resolveSubcommand(word, of: command, at: path)
            path.append(word)
        }
        return .help(command: path.joined(separator: " "))
    }

    /// The command named `name`, or an error suggesting the closest one.
    private func resolveCommand(_ name: String) throws(ArgumentError) -> CommandSpec {
        if let command = command(named: name) { return command }
        let names = commands.map(\.name)
        throw .unknownCommand(
            name, suggestion: Suggestions.closest(to: name, among: names), available: names)
    }

    /// The subcommand `name` of `command` (at `path`), or an error suggesting the closest one.
    private func resolveSubcommand(
        _ name: String, of command: CommandSpec, at path: [String]
    ) throws(ArgumentError) -> CommandSpec {
        if let subcommand = command.subcommand(named: name) { return subcommand }
        let names = command.subcommands.map(\.name)
        throw .unknownSubcommand(
            name, command: path.joined(separator: " "),
            suggestion: Suggestions.closest(to: name, among: names), available: names)
    }
}

/// Parses the arguments after a command name against that command's spec.
struct CommandParser {
    /// The command whose options and positionals are expected.
    let spec: CommandSpec
    /// The names that lead to it, e.g. `["faces", "add"]`.
    let path: [String]

    /// The command as messages name it, e.g. `faces add`.
    private var commandName: String { path.joined(separator: " ") }

    /// Whether `token` is `--help` or `-h`.
    static func isHelp(_ token: String) -> Bool {
        token == "--help" || token == "-h"
    }

    /// Whether a help token appears before any `--`.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains(where: isHelp)
    }

    /// Whether `token` is an option rather than a value: it starts with `-` and is neither
    /// a lone `-` nor a negative number such as `-1`, `-0.5` or `-00:01`.
    static func looksLikeOption(_ token: String) -> Bool {
        let characters = Array(token)
        guard characters.count > 1, characters[0] == "-" else { return false }
        if characters[1].isASCII, characters[1].isNumber { return false }
        if characters[1] == ".", characters.count > 2,
           characters[2].isASCII, characters[2].isNumber {
            return false
        }
        return true
    }

    /// Parses the arguments into flags, option values and positionals.
    func parse(_ arguments: [String]) throws(ArgumentError) -> ParsedArguments {
        var flags: [String: Int] = [:]
        var values: [String: [String]] = [:]
        var positionals: [String] = []
        var optionsEnded = false
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(token) {
                positionals.append(token)
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            let (option, inlineValue) = try resolve(token)
            let seen = flags[option.name] != nil || values[option.name] != nil
            if seen, !option.isRepeatable { throw .repeatedOption(option.displayName) }
            switch option.kind {
            case .flag:
                if let inlineValue {
                    throw .unexpectedValue(option: option.displayName, value: inlineValue)
                }
                flags[option.name, default: 0] += 1
            case .value:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !Self.looksLikeOption(arguments[index]) {
                    value = arguments[index]
                    index += 1
                } else {
                    throw .missingValue(
                        option: option.displayName, valueName: option.valueName,
                        allowedValues: option.allowedValues)
                }
                try checkAllowed(value, for: option)
                values[option.name, default: []].append(value)
            }
        }
        return ParsedArguments(
            commandPath: path, declaring: spec.options, flags: flags, values: values,
            positionals: positionals, namedPositionals: try assign(positionals))
    }

    /// The option that `token` names, and the value written after `=`, if any.
    private func resolve(_ token: String) throws(ArgumentError) -> (OptionSpec, String?) {
        let isLong = token.hasPrefix("--")
        let body = token.dropFirst(isLong ? 2 : 1)
        let name: String
        let inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
            inlineValue = nil
        }
        let written = (isLong ? "--" : "-") + name
        if isLong, let option = spec.option(named: name) { return (option, inlineValue) }
        if !isLong, name.count == 1, let letter = name.first,
           let option = spec.option(short: letter) {
            return (option, inlineValue)
        }
        // A single-dash long name such as `-preset` most likely meant `--preset`.
        let longNames = spec.options.map(\.name)
        let suggestion: String?
        if !isLong, name.count > 1, spec.option(named: name) != nil {
            suggestion = name
        } else if isLong || name.count > 1 {
            suggestion = Suggestions.closest(to: name, among: longNames + ["help"])
        } else {
            suggestion = nil
        }
        throw .unknownOption(written, command: commandName, suggestion: suggestion.map { "--" + $0 })
    }

    /// Rejects `value` when the option restricts its values and `value` is not among them.
    private func checkAllowed(_ value: String, for option: OptionSpec) throws(ArgumentError) {
        guard !option.allowedValues.isEmpty, !option.allowedValues.contains(value) else { return }
        throw .invalidChoice(
            option: option.displayName, value: value, allowedValues: option.allowedValues,
            suggestion: Suggestions.closest(to: value, among: option.allowedValues))
    }

    /// Assigns positional values to the positional specs in order.
    ///
    /// Required specs take one value each; values left over go to optional specs in order,
    /// and a variadic spec takes all of them.
    private func assign(_ values: [String]) throws(ArgumentError) -> [String: [String]] {
        let requiredCount = spec.positionals.filter { !$0.isOptional }.count
        var spare = max(0, values.count - requiredCount)
        var cursor = 0
        var assigned: [String: [String]] = [:]
        for positional in spec.positionals {
            let base = positional.isOptional ? 0 : 1
            let extra = positional.isVariadic ? spare : min(spare, 1 - base)
            let take = base + extra
            if cursor + take > values.count {
                throw .missingPositional(positional.name, command: commandName)
            }
            spare -= extra
            assigned[positional.name] = Array(values[cursor..<(cursor + take)])
            cursor += take
        }
        if cursor < values.count {
            throw .unexpectedPositional(
                values[cursor], command: commandName, expected: spec.positionalSynopsis)
        }
        return assigned
    }
}
