import ReelArguments
import Testing

@Suite("Parsing command lines", .timeLimit(.minutes(5)))
struct ParsingTests {
    @Test("long, long=value and short option syntaxes give the same value", arguments: [
        ["compress", "in.mp4", "--output", "out.mp4"],
        ["compress", "in.mp4", "--output=out.mp4"],
        ["compress", "in.mp4", "-o", "out.mp4"],
        ["compress", "in.mp4", "-o=out.mp4"],
        ["compress", "-o", "out.mp4", "in.mp4"],
    ])
    func optionSyntaxes(arguments: [String]) throws {
        let parsed = try parseRun(arguments)
        #expect(parsed.command == "compress")
        #expect(parsed.commandPath == ["compress"])
        #expect(try parsed.value(Keys.output) == "out.mp4")
        #expect(parsed.positionals == ["in.mp4"])
        #expect(parsed.positional("INPUT") == "in.mp4")
    }

    @Test("flags, counts and absent options")
    func flags() throws {
        let parsed = try parseRun(["compress", "a.mp4", "--overwrite", "-v", "--verbose", "-v"])
        #expect(try parsed.isSet(Keys.overwrite))
        #expect(try parsed.count(Keys.verbose) == 3)
        #expect(try parsed.value(Keys.preset) == nil)
        #expect(try parsed.values(Keys.range).isEmpty)
        let short = try parseRun(["compress", "a.mp4", "-y"])
        #expect(try short.isSet(Keys.overwrite))
        #expect(try !short.isSet(Keys.verbose))
        #expect(try short.count(Keys.verbose) == 0)
    }

    @Test("repeatable options keep every value in order")
    func repeatable() throws {
        let parsed = try parseRun(["compress", "a.mp4", "--range", "1-2", "--range=5-6", "--range", "9-10"])
        let ranges = try parsed.values(Keys.range)
        #expect(ranges.map { $0.map(\.start.value) } == [[1], [5], [9]])
        #expect(try parsed.value(Keys.range)?.first?.start.value == 9)
        #expect(try parsed.text(Keys.range) == "9-10")
    }

    @Test("typed reads convert with the key's parser and name the option in errors")
    func typedReads() throws {
        let parsed = try parseRun(["compress", "a.mp4", "--bitrate", "2.5M", "--start", "-00:00:12.250", "--preset", "high"])
        #expect(try parsed.value(Keys.bitrate) == 2_500_000)
        #expect(try parsed.value(Keys.start) == ParsedTime(value: -12_250, timescale: 1_000))
        #expect(try parsed.value(Keys.preset) == .high)
        #expect(try parsed.text(Keys.bitrate) == "2.5M")
        #expect(try parsed.value(Keys.output) == nil)
        let bad = try parseRun(["compress", "a.mp4", "--bitrate", "fast"])
        #expect(throws: ArgumentError.invalidValue(
            option: "--bitrate", value: "fast",
            reason: "expected bits per second such as 2M, 2.5M, 800k or 2000000")) {
            try bad.value(Keys.bitrate)
        }
        #expect(try bad.text(Keys.bitrate) == "fast")
    }

    @Test("negative numbers are values, not options", arguments: ["-1", "-0.5", "-00:00:02", "-.5"])
    func negativeValues(value: String) throws {
        let parsed = try parseRun(["compress", "a.mp4", "--start", value])
        #expect(try parsed.text(Keys.start) == value)
        #expect(parsed.positionals == ["a.mp4"])
    }

    @Test("a lone dash is a value or a positional")
    func loneDash() throws {
        let parsed = try parseRun(["compress", "-", "-o", "-"])
        #expect(parsed.positionals == ["-"])
        #expect(try parsed.value(Keys.output) == "-")
    }

    @Test("-- ends options")
    func doubleDash() throws {
        let parsed = try parseRun(["analyze", "a.mp4", "--", "--shard", "-h", "--help", "--"])
        #expect(parsed.positionals == ["a.mp4", "--shard", "-h", "--help", "--"])
        #expect(parsed.positionalValues("INPUTS") == ["a.mp4", "--shard", "-h", "--help", "--"])
        #expect(try parsed.value(Keys.shard) == nil)
    }

    @Test("optional and variadic positionals are assigned in order")
    func positionalAssignment() throws {
        let one = try parseRun(["trim", "in.mp4"])
        #expect(one.positional("INPUT") == "in.mp4")
        #expect(one.positional("OUTPUT") == nil)
        let two = try parseRun(["trim", "in.mp4", "out.mp4"])
        #expect(two.positional("OUTPUT") == "out.mp4")
        let many = try parseRun(["analyze", "a.mp4", "--shard", "1/2", "b.mp4", "c.mp4"])
        #expect(many.positionalValues("INPUTS") == ["a.mp4", "b.mp4", "c.mp4"])
        #expect(try many.value(Keys.shard) == ParsedShard(index: 1, count: 2))
    }

    @Test("empty option values are kept")
    func emptyInlineValue() throws {
        #expect(try parseRun(["compress", "a.mp4", "--output="]).value(Keys.output) == "")
    }

    @Test("help is requested by --help or -h anywhere, or by help COMMAND", arguments: [
        (["--help"], nil), (["-h"], nil), (["help"], nil), (["help", "--help"], nil),
        (["help", "compress"], "compress"), (["compress", "--help"], "compress"),
        (["compress", "in.mp4", "--prest", "x", "-h"], "compress"),
        (["analyze", "-o", "--help"], "analyze"),
    ] as [([String], String?)])
    func help(arguments: [String], command: String?) throws {
        #expect(try Fixtures.tool.parse(arguments) == .help(command: command))
    }

    @Test("--version at tool level asks for the version")
    func version() throws {
        #expect(try Fixtures.tool.parse(["--version"]) == .version)
        #expect(HelpFormatter(tool: Fixtures.tool).versionText == "reel 1.2.3")
        #expect(parseError(["compress", "--version"]) == .unknownOption(
            "--version", command: "compress", suggestion: nil))
    }

    @Test("parsed arguments can be built directly")
    func directConstruction() throws {
        let parsed = ParsedArguments(
            commandPath: ["compress"], declaring: Fixtures.compress.options,
            flags: ["overwrite": 1], values: ["preset": ["low"]])
        #expect(try parsed.isSet(Keys.overwrite))
        #expect(try parsed.value(Keys.preset) == .low)
    }
}
