extension ToolSpec {
    /// Mistakes in the spec itself, one sentence each; empty when the spec is sound.
    ///
    /// Checks for duplicate or reserved names (`help`, `-h`), malformed names, allowed
    /// values on flags, positionals out of order, and options or positionals beside
    /// subcommands. Call it from a test of the tool's spec.
    public func validationProblems() -> [String] {
        CommandSpec.namingProblems(of: commands, kind: "command", parent: nil)
    }
}

extension CommandSpec {
    /// Mistakes in the names of `commands` (the tool's, or `parent`'s subcommands) and in each
    /// of them; `kind` is `command` or `subcommand`.
    static func namingProblems(of commands: [CommandSpec], kind: String, parent: [String]?) -> [String] {
        var problems: [String] = []
        var names: Set<String> = []
        for command in commands {
            let path = (parent ?? []) + [command.name]
            let label = path.joined(separator: " ")
            if command.name.isEmpty || command.name.hasPrefix("-") || command.name.contains(" ") {
                problems.append("\(kind) name '\(label)' must be a non-empty word")
            }
            if command.name == "help" {
                problems.append("\(kind) name '\(label)' is reserved for 'help COMMAND'")
            }
            if !names.insert(command.name).inserted {
                problems.append("\(kind) '\(label)' is declared more than once")
            }
            problems += command.validationProblems(label: label)
            if !command.subcommands.isEmpty {
                if !command.options.isEmpty || !command.positionals.isEmpty {
                    problems.append("'\(label)' has subcommands, so its options and arguments "
                        + "belong to them, not to it")
                }
                problems += namingProblems(of: command.subcommands, kind: "subcommand", parent: path)
            }
        }
        return problems
    }

    /// Mistakes in this command's options and positionals; `label` names it in messages.
    func validationProblems(label commandLabel: String) -> [String] {
        var problems: [String] = []
        var names: Set<String> = []
        var shorts: Set<Character> = []
        for option in options {
            let label = "'\(commandLabel)' option '\(option.name)'"
            if option.name.count < 2 || option.name.hasPrefix("-") || option.name.contains("=")
                || option.name.contains(" ") {
                problems.append("\(label): long names have 2+ characters, no dashes, '=' or spaces")
            }
            if option.name == "help" { problems.append("\(label): '--help' is reserved") }
            if !names.insert(option.name).inserted {
                problems.append("\(label) is declared more than once")
            }
            if let short = option.short {
                if !(short.isASCII && short.isLetter) {
                    problems.append("\(label): short name '\(short)' must be an ASCII letter")
                }
                if short == "h" { problems.append("\(label): '-h' is reserved for help") }
                if !shorts.insert(short).inserted {
                    problems.append("\(label): short name '-\(short)' is used more than once")
                }
            }
            if option.kind == .flag, !option.allowedValues.isEmpty {
                problems.append("\(label) is a flag but lists allowed values")
            }
            if option.kind == .value, option.valueName.isEmpty {
                problems.append("\(label) takes a value but has no value name")
            }
        }
        problems += positionalProblems(label: commandLabel)
        return problems
    }

    /// Mistakes in the order and naming of the positionals.
    private func positionalProblems(label commandLabel: String) -> [String] {
        var problems: [String] = []
        var names: Set<String> = []
        var seenOptional = false
        for (index, positional) in positionals.enumerated() {
            let label = "'\(commandLabel)' argument '\(positional.name)'"
            if !names.insert(positional.name).inserted {
                problems.append("\(label) is declared more than once")
            }
            if positional.isVariadic, index != positionals.count - 1 {
                problems.append("\(label) is variadic but not last")
            }
            if !positional.isOptional, seenOptional {
                problems.append("\(label) is required but follows an optional argument")
            }
            seenOptional = seenOptional || positional.isOptional
        }
        return problems
    }
}
