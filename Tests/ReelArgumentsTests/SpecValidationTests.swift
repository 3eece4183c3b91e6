import ReelArguments
import Testing

@Suite("Spec validation", .timeLimit(.minutes(5)))
struct SpecValidationTests {
    @Test("the fixture spec is sound")
    func fixtureIsSound() {
        #expect(Fixtures.tool.validationProblems() == [])
    }

    @Test("mistakes in a spec are reported")
    func mistakes() {
        let bad = CommandSpec(
            name: "bad",
            abstract: "",
            options: [
                .flag("help", help: ""),
                .flag("x", short: "h", help: ""),
                .value("dup", valueName: "V", help: ""),
                .value("dup", short: "1", valueName: "", help: ""),
                OptionSpec(name: "quiet", help: "", kind: .flag, allowedValues: ["a"]),
            ],
            positionals: [
                PositionalSpec(name: "A", isOptional: true),
                PositionalSpec(name: "B", isVariadic: true),
                PositionalSpec(name: "B"),
            ])
        let tool = ToolSpec(name: "t", abstract: "", version: "0", commands: [bad, bad, CommandSpec(name: "help", abstract: "")])
        let problems = tool.validationProblems()
        let badProblems = [
            "'bad' option 'help': '--help' is reserved",
            "'bad' option 'x': long names have 2+ characters, no dashes, '=' or spaces",
            "'bad' option 'x': '-h' is reserved for help",
            "'bad' option 'dup' is declared more than once",
            "'bad' option 'dup': short name '1' must be an ASCII letter",
            "'bad' option 'dup' takes a value but has no value name",
            "'bad' option 'quiet' is a flag but lists allowed values",
            "'bad' argument 'B' is variadic but not last",
            "'bad' argument 'B' is required but follows an optional argument",
            "'bad' argument 'B' is declared more than once",
            "'bad' argument 'B' is required but follows an optional argument",
        ]
        #expect(problems == badProblems + ["command 'bad' is declared more than once"] + badProblems
            + ["command name 'help' is reserved for 'help COMMAND'"])
    }
}
