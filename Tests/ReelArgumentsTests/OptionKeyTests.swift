import ReelArguments
import Testing

/// A group of options two commands share: its keys are declared once and read by each command
/// that includes the group.
private enum SharedGroup {
    static let json = FlagKey("json", help: "Print JSON.")
    static let level = OptionKey<Int>(
        "level", valueName: "N", help: "A level.", parse: ValueParsers.positiveInteger)
    static let specs = [json.spec, level.spec]
}

private enum Speed: String, CaseIterable {
    case slow, medium, fast
}

@Suite("Typed option keys", .timeLimit(.minutes(5)))
struct OptionKeyTests {
    @Test("reading a key the command does not declare throws, given or not")
    func undeclaredReads() throws {
        let analyze = try parseRun(["analyze", "a.mp4"])
        #expect(throws: ArgumentError.undeclaredOption("--output", command: "analyze")) {
            try analyze.value(Keys.output)
        }
        #expect(throws: ArgumentError.undeclaredOption("--output", command: "analyze")) {
            try analyze.text(Keys.output)
        }
        #expect(throws: ArgumentError.undeclaredOption("--range", command: "analyze")) {
            try analyze.values(Keys.range)
        }
        #expect(throws: ArgumentError.undeclaredOption("--overwrite", command: "analyze")) {
            try analyze.isSet(Keys.overwrite)
        }
        #expect(throws: ArgumentError.undeclaredOption("--verbose", command: "analyze")) {
            try analyze.count(Keys.verbose)
        }
        let compress = try parseRun(["compress", "a.mp4", "-o", "x.mp4"])
        #expect(try compress.value(Keys.output) == "x.mp4")
        #expect(throws: ArgumentError.undeclaredOption("--shard", command: "compress")) {
            try compress.value(Keys.shard)
        }
    }

    @Test("a key of the declared name but the other kind is undeclared too")
    func kindMismatch() throws {
        let parsed = try parseRun(["compress", "a.mp4", "-o", "x.mp4"])
        #expect(throws: ArgumentError.undeclaredOption("--output", command: "compress")) {
            try parsed.isSet(FlagKey("output", help: ""))
        }
        #expect(throws: ArgumentError.undeclaredOption("--overwrite", command: "compress")) {
            try parsed.value(OptionKey<String>("overwrite", valueName: "X", help: ""))
        }
    }

    @Test("the undeclared-read message says it is the tool's mistake")
    func undeclaredMessage() {
        #expect(ArgumentError.undeclaredOption("--report", command: "split").description
            == "internal error: 'split' reads option '--report', which it does not declare")
    }

    @Test("an enumeration key allows its cases' raw values, in order, and converts to the case")
    func enumerationKey() throws {
        let key = OptionKey<Speed>("speed", valueName: "SPEED", help: "How fast.")
        #expect(key.spec.allowedValues == ["slow", "medium", "fast"])
        #expect(key.spec.kind == .value)
        #expect(try key.converted("fast") == .fast)
        #expect(throws: ArgumentError.invalidChoice(
            option: "--speed", value: "fats", allowedValues: ["slow", "medium", "fast"], suggestion: "fast")) {
            try key.converted("fats")
        }
        let command = CommandSpec(name: "go", abstract: "", options: [key.spec])
        let tool = ToolSpec(name: "t", abstract: "", version: "0", commands: [command])
        #expect(throws: ArgumentError.invalidChoice(
            option: "--speed", value: "warp", allowedValues: ["slow", "medium", "fast"], suggestion: nil)) {
            try tool.parse(["go", "--speed", "warp"])
        }
    }

    @Test("a string key keeps the text; a parser key names its option in errors")
    func conversions() throws {
        #expect(try Keys.output.converted(" spaced name.mp4") == " spaced name.mp4")
        #expect(try Keys.bitrate.converted("800k") == 800_000)
        #expect(throws: ArgumentError.invalidValue(
            option: "--shard", value: "3/2", reason: "expected a shard K/N with 1 <= K <= N, such as 1/4")) {
            try Keys.shard.converted("3/2")
        }
    }

    @Test("a key declared with other words reads the same option")
    func redeclared() throws {
        let directory = Keys.output.declared(valueName: "DIR", help: "Where the pieces go.")
        #expect(directory.spec.valueName == "DIR" && directory.spec.help == "Where the pieces go.")
        #expect(directory.name == "output" && directory.spec.short == "o")
        let named = Keys.output.declared(allowedValues: ["a", "b"])
        #expect(named.spec.allowedValues == ["a", "b"])
        let quiet = Keys.overwrite.declared(help: "Replace the pieces.")
        #expect(quiet.spec.help == "Replace the pieces." && quiet.spec.short == "y")
        let command = CommandSpec(
            name: "split", abstract: "", options: [directory.spec, quiet.spec],
            positionals: [PositionalSpec(name: "INPUT")])
        let tool = ToolSpec(name: "t", abstract: "", version: "0", commands: [command])
        guard case .run(let parsed) = try tool.parse(["split", "in.mp4", "-o", "out", "-y"]) else {
            Issue.record("expected a run")
            return
        }
        #expect(try parsed.value(Keys.output) == "out")
        #expect(try parsed.isSet(Keys.overwrite))
    }

    @Test("a group's keys are read by every command that includes it, and by no other")
    func sharedGroup() throws {
        let first = CommandSpec(name: "first", abstract: "", options: SharedGroup.specs)
        let second = CommandSpec(name: "second", abstract: "", options: [Keys.output.spec] + SharedGroup.specs)
        let third = CommandSpec(name: "third", abstract: "", options: [Keys.output.spec])
        let tool = ToolSpec(name: "t", abstract: "", version: "0", commands: [first, second, third])
        for (arguments, level) in [(["first", "--json", "--level", "3"], 3), (["second", "--level=7", "--json", "-o", "x"], 7)] {
            guard case .run(let parsed) = try tool.parse(arguments) else {
                Issue.record("expected a run")
                continue
            }
            #expect(try parsed.isSet(SharedGroup.json))
            #expect(try parsed.value(SharedGroup.level) == level)
        }
        guard case .run(let third) = try tool.parse(["third", "-o", "x"]) else {
            Issue.record("expected a run")
            return
        }
        #expect(throws: ArgumentError.undeclaredOption("--json", command: "third")) {
            try third.isSet(SharedGroup.json)
        }
        #expect(throws: ArgumentError.unknownOption("--json", command: "third", suggestion: nil)) {
            try tool.parse(["third", "--json"])
        }
    }
}
