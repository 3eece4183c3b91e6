import ReelArguments
import Testing

/// A tool whose `media` command has subcommands, each with its own options and positionals.
private enum MediaTool {
    static let verbose = FlagKey("verbose", help: "Say more.")
    static let update = FlagKey("update", help: "Regroup when done.")
    static let sheet = OptionKey<String>("sheet", valueName: "FILE", help: "Write a sheet.")

    static let add = CommandSpec(
        name: "add", abstract: "Add files.", examples: ["t media add a.jpg --update"],
        options: [verbose.spec, update.spec],
        positionals: [PositionalSpec(name: "PATH", help: "Files to add.", isVariadic: true)])
    static let people = CommandSpec(name: "people", abstract: "List people.", options: [verbose.spec, sheet.spec])
    static let purge = CommandSpec(name: "purge", abstract: "Delete the index.", options: [verbose.spec])
    static let media = CommandSpec(
        name: "media", abstract: "Keep an index of media.", discussion: "Faces, grouped.",
        examples: ["t media people --sheet s.jpg"], subcommands: [add, people, purge])
    static let tool = ToolSpec(
        name: "t", abstract: "A tool.", version: "1",
        commands: [media, CommandSpec(name: "probe", abstract: "Describe a file.")])

    static func error(_ arguments: [String]) -> ArgumentError? {
        do {
            _ = try tool.parse(arguments)
            return nil
        } catch {
            return error
        }
    }
}

@Suite("Subcommands", .timeLimit(.minutes(5)))
struct SubcommandTests {
    @Test("a subcommand parses its own options and positionals and names itself with its command")
    func parsesSubcommand() throws {
        guard case .run(let parsed) = try MediaTool.tool.parse(["media", "add", "a.jpg", "--update", "b.jpg"]) else {
            Issue.record("expected a run")
            return
        }
        #expect(parsed.commandPath == ["media", "add"])
        #expect(parsed.command == "media add")
        #expect(parsed.positionalValues("PATH") == ["a.jpg", "b.jpg"])
        #expect(try parsed.isSet(MediaTool.update))
        #expect(throws: ArgumentError.undeclaredOption("--sheet", command: "media add")) {
            try parsed.value(MediaTool.sheet)
        }
        guard case .run(let people) = try MediaTool.tool.parse(["media", "people", "--sheet", "s.jpg"]) else {
            Issue.record("expected a run")
            return
        }
        #expect(try people.value(MediaTool.sheet) == "s.jpg")
    }

    @Test("mistakes name the subcommand", arguments: [
        (["media"], ArgumentError.missingSubcommand(command: "media", available: ["add", "people", "purge"])),
        (["media", "--verbose", "add", "a"], .missingSubcommand(command: "media", available: ["add", "people", "purge"])),
        (["media", "ad", "a.jpg"], .unknownSubcommand("ad", command: "media", suggestion: "add", available: ["add", "people", "purge"])),
        (["media", "dance"], .unknownSubcommand("dance", command: "media", suggestion: nil, available: ["add", "people", "purge"])),
        (["help", "media", "peple"], .unknownSubcommand("peple", command: "media", suggestion: "people", available: ["add", "people", "purge"])),
        (["media", "add"], .missingPositional("PATH", command: "media add")),
        (["media", "purge", "x"], .unexpectedPositional("x", command: "media purge", expected: "")),
        (["media", "people", "--update"], .unknownOption("--update", command: "media people", suggestion: nil)),
        (["media", "add", "a", "--updte"], .unknownOption("--updte", command: "media add", suggestion: "--update")),
        (["help", "media", "add", "extra"], .unexpectedPositional("extra", command: "help", expected: "COMMAND")),
        (["help", "probe", "add"], .unexpectedPositional("add", command: "help", expected: "COMMAND")),
    ] as [([String], ArgumentError)])
    func mistakes(arguments: [String], expected: ArgumentError) {
        #expect(MediaTool.error(arguments) == expected)
    }

    @Test("help for a command with subcommands, and for each subcommand", arguments: [
        (["media", "--help"], "media"), (["media", "-h", "add"], "media"), (["help", "media"], "media"),
        (["media", "--verbose", "--help"], "media"),
        (["media", "add", "--help"], "media add"), (["media", "add", "a.jpg", "-h"], "media add"),
        (["help", "media", "add"], "media add"), (["help", "media", "people", "--help"], "media people"),
    ] as [([String], String)])
    func helpRequests(arguments: [String], command: String) throws {
        #expect(try MediaTool.tool.parse(arguments) == .help(command: command))
    }

    @Test("the command's help lists its subcommands; a subcommand's shows only its own options")
    func helpText() {
        let formatter = HelpFormatter(tool: MediaTool.tool)
        #expect(formatter.help(forCommandNamed: "media") == """
            OVERVIEW: Keep an index of media.

            Faces, grouped.

            USAGE: t media SUBCOMMAND [OPTIONS]

            SUBCOMMANDS:
              add     Add files.
              people  List people.
              purge   Delete the index.

            OPTIONS:
              -h, --help  Show help for this command.

            EXAMPLES:
              t media people --sheet s.jpg

            See 't help media SUBCOMMAND' or 't media SUBCOMMAND --help' for a subcommand's
            arguments and options.
            """)
        #expect(formatter.help(forCommandNamed: "media add") == """
            OVERVIEW: Add files.

            USAGE: t media add [--verbose] [--update] PATH...

            ARGUMENTS:
              PATH...  Files to add.

            OPTIONS:
                  --verbose  Say more.
                  --update   Regroup when done.
              -h, --help     Show help for this command.

            EXAMPLES:
              t media add a.jpg --update
            """)
        #expect(!formatter.help(forCommandNamed: "media people").contains("--update"))
        #expect(formatter.help(forCommandNamed: "media people").contains("USAGE: t media people [--verbose] [--sheet FILE]"))
        #expect(formatter.help(forCommandNamed: "media nope") == formatter.overview())
    }

    @Test("the sound spec passes; subcommand mistakes are reported with their path")
    func validation() {
        #expect(MediaTool.tool.validationProblems() == [])
        let broken = CommandSpec(
            name: "media", abstract: "", options: [MediaTool.update.spec],
            subcommands: [
                CommandSpec(name: "add", abstract: "", options: [.flag("x", help: "")]),
                CommandSpec(name: "add", abstract: ""),
                CommandSpec(name: "help", abstract: ""),
            ])
        let tool = ToolSpec(name: "t", abstract: "", version: "0", commands: [broken])
        #expect(tool.validationProblems() == [
            "'media' has subcommands, so its options and arguments belong to them, not to it",
            "'media add' option 'x': long names have 2+ characters, no dashes, '=' or spaces",
            "subcommand 'media add' is declared more than once",
            "subcommand name 'media help' is reserved for 'help COMMAND'",
        ])
    }

    @Test("messages for missing and unknown subcommands", arguments: [
        (ArgumentError.missingSubcommand(command: "faces", available: ["add", "purge"]),
         "missing subcommand for 'faces'; expected one of: add, purge"),
        (.unknownSubcommand("ad", command: "faces", suggestion: "add", available: ["add", "purge"]),
         "unknown subcommand 'ad' for 'faces'; did you mean 'add'?"),
        (.unknownSubcommand("zip", command: "faces", suggestion: nil, available: ["add", "purge"]),
         "unknown subcommand 'zip' for 'faces'; expected one of: add, purge"),
    ])
    func messages(error: ArgumentError, message: String) {
        #expect(error.description == message)
    }
}
