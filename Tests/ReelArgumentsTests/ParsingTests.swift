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
        #expect(parsed.value("output") == "out.mp4")
        #expect(parsed.positionals == ["in.mp4"])
        #expect(parsed.positional("INPUT") == "in.mp4")
    }

    @Test("flags, counts and absent options")
    func flags() throws {
        let parsed = try parseRun(["compress", "a.mp4", "--overwrite", "-v", "--verbose", "-v"])
        #expect(parsed.flag("overwrite"))
        #expect(parsed.count("verbose") == 3)
        #expect(!parsed.flag("nonexistent"))
        #expect(parsed.value("preset") == nil)
        #expect(parsed.values("range") == [])
        let short = try parseRun(["compress", "a.mp4", "-y"])
        #expect(short.flag("overwrite"))
        #expect(!short.flag("verbose"))
    }

    @Test("repeatable options keep every value in order")
    func repeatable() throws {
        let parsed = try parseRun(["compress", "a.mp4", "--range", "1-2", "--range=5-6", "--range", "9-10"])
        #expect(parsed.values("range") == ["1-2", "5-6", "9-10"])
        #expect(parsed.value("range") == "9-10")
        #expect(parsed.count("range") == 3)
        let ranges = try parsed.values("range", as: ValueParsers.timeRanges)
        #expect(ranges.map { $0.map(\.start.value) } == [[1], [5], [9]])
    }

    @Test("typed accessors run the value parsers with the option's name")
    func typedAccessors() throws {
        let parsed = try parseRun(["compress", "a.mp4", "--bitrate", "2.5M", "--start", "00:00:12.250"])
        #expect(try parsed.value("bitrate", as: ValueParsers.bitrate) == 2_500_000)
        #expect(try parsed.value("start", as: ValueParsers.time) == ParsedTime(value: 12_250, timescale: 1_000))
        #expect(try parsed.value("output", as: ValueParsers.bitrate) == nil)
        let bad = try parseRun(["compress", "a.mp4", "--bitrate", "fast"])
        #expect(throws: ArgumentError.invalidValue(
            option: "--bitrate", value: "fast",
            reason: "expected bits per second such as 2M, 2.5M, 800k or 2000000")) {
            try bad.value("bitrate", as: ValueParsers.bitrate)
        }
    }

    @Test("negative numbers are values, not options", arguments: ["-1", "-0.5", "-00:00:02", "-.5"])
    func negativeValues(value: String) throws {
        let parsed = try parseRun(["compress", "a.mp4", "--start", value])
        #expect(parsed.value("start") == value)
        #expect(parsed.positionals == ["a.mp4"])
    }

    @Test("a lone dash is a value or a positional")
    func loneDash() throws {
        let parsed = try parseRun(["compress", "-", "-o", "-"])
        #expect(parsed.positionals == ["-"])
        #expect(parsed.value("output") == "-")
    }

    @Test("-- ends options")
    func doubleDash() throws {
        let parsed = try parseRun(["analyze", "a.mp4", "--", "--shard", "-h", "--help", "--"])
        #expect(parsed.positionals == ["a.mp4", "--shard", "-h", "--help", "--"])
        #expect(parsed.positionalValues("INPUTS") == ["a.mp4", "--shard", "-h", "--help", "--"])
        #expect(parsed.value("shard") == nil)
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
        #expect(try many.value("shard", as: ValueParsers.shard) == ParsedShard(index: 1, count: 2))
    }

    @Test("empty option values are kept")
    func emptyInlineValue() throws {
        #expect(try parseRun(["compress", "a.mp4", "--output="]).value("output") == "")
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
    func directConstruction() {
        let parsed = ParsedArguments(command: "compress", flags: ["overwrite": 1], values: ["preset": ["low"]])
        #expect(parsed.flag("overwrite"))
        #expect(parsed.value("preset") == "low")
    }
}
