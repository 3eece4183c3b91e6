extension ToolSpec {
    /// Mistakes in the spec itself, one sentence each; empty when the spec is sound.
    ///
    /// Checks for duplicate or reserved names (`help`, `-h`), malformed names, allowed
    /// values on flags, and positionals out of order. Call it from a test of the tool's spec.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        var commandNames: Set<String> = []
        for command in commands {
            if command.name.isEmpty || command.name.hasPrefix("-") || command.name.contains(" ") {
                problems.append("command name '\(command.name)' must be a non-empty word")
            }
            if command.name == "help" {
                problems.append("command name 'help' is reserved for 'help COMMAND'")
            }
            if !commandNames.insert(command.name).inserted {
                problems.append("command '\(command.name)' is declared more than once")
            }
            problems += command.validationProblems()
        }
        return problems
    }
}

extension CommandSpec {
    /// Mistakes in this command's options and positionals.
    func validationProblems() -> [String] {
        var problems: [String] = []
        var names: Set<String> = []
        var shorts: Set<Character> = []
        for option in options {
            let label = "'\(name)' option '\(option.name)'"
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
        problems += positionalProblems()
        return problems
    }

    /// Mistakes in the order and naming of the positionals.
    private func positionalProblems() -> [String] {
        var problems: [String] = []
        var names: Set<String> = []
        var seenOptional = false
        for (index, positional) in positionals.enumerated() {
            let label = "'\(name)' argument '\(positional.name)'"
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
