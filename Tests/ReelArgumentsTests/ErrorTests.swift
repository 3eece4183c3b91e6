import ReelArguments
import Testing

@Suite("Argument errors", .timeLimit(.minutes(5)))
struct ErrorTests {
    @Test("errors carry what went wrong", arguments: [
        ([], ArgumentError.missingCommand(available: ["compress", "analyze", "trim"])),
        (["compres"], .unknownCommand("compres", suggestion: "compress", available: ["compress", "analyze", "trim"])),
        (["frobnicate"], .unknownCommand("frobnicate", suggestion: nil, available: ["compress", "analyze", "trim"])),
        (["help", "anlyze"], .unknownCommand("anlyze", suggestion: "analyze", available: ["compress", "analyze", "trim"])),
        (["--verison"], .unknownOption("--verison", command: nil, suggestion: "--version")),
        (["compress", "a.mp4", "--prest", "low"], .unknownOption("--prest", command: "compress", suggestion: "--preset")),
        (["compress", "a.mp4", "--presetx=low"], .unknownOption("--presetx", command: "compress", suggestion: "--preset")),
        (["compress", "a.mp4", "--ovewrite"], .unknownOption("--ovewrite", command: "compress", suggestion: "--overwrite")),
        (["compress", "a.mp4", "--outptu", "x"], .unknownOption("--outptu", command: "compress", suggestion: "--output")),
        (["compress", "a.mp4", "-preset", "low"], .unknownOption("-preset", command: "compress", suggestion: "--preset")),
        (["compress", "a.mp4", "--zebra"], .unknownOption("--zebra", command: "compress", suggestion: nil)),
        (["compress", "a.mp4", "-x"], .unknownOption("-x", command: "compress", suggestion: nil)),
        (["compress", "a.mp4", "-yv"], .unknownOption("-yv", command: "compress", suggestion: nil)),
        (["compress", "a.mp4", "--preset"], .missingValue(option: "--preset", valueName: "NAME", allowedValues: ["low", "medium", "high"])),
        (["compress", "a.mp4", "-o", "--overwrite"], .missingValue(option: "--output", valueName: "PATH", allowedValues: [])),
        (["compress", "a.mp4", "-o", "--"], .missingValue(option: "--output", valueName: "PATH", allowedValues: [])),
        (["compress", "a.mp4", "--overwrite=yes"], .unexpectedValue(option: "--overwrite", value: "yes")),
        (["compress", "a.mp4", "--preset", "hihg"], .invalidChoice(option: "--preset", value: "hihg", allowedValues: ["low", "medium", "high"], suggestion: "high")),
        (["compress", "a.mp4", "--preset=ultra"], .invalidChoice(option: "--preset", value: "ultra", allowedValues: ["low", "medium", "high"], suggestion: nil)),
        (["compress", "a.mp4", "-o", "x", "--output", "y"], .repeatedOption("--output")),
        (["compress", "a.mp4", "-y", "--overwrite"], .repeatedOption("--overwrite")),
        (["compress", "a.mp4", "b.mp4"], .unexpectedPositional("b.mp4", command: "compress", expected: "INPUT")),
        (["trim", "a", "b", "c"], .unexpectedPositional("c", command: "trim", expected: "INPUT [OUTPUT]")),
        (["help", "compress", "extra"], .unexpectedPositional("extra", command: "help", expected: "COMMAND")),
        (["compress"], .missingPositional("INPUT", command: "compress")),
        (["analyze", "--shard", "1/2"], .missingPositional("INPUTS", command: "analyze")),
    ] as [([String], ArgumentError)])
    func errorCases(arguments: [String], expected: ArgumentError) {
        #expect(parseError(arguments) == expected)
    }

    @Test("messages are one actionable line", arguments: [
        (ArgumentError.missingCommand(available: ["compress", "analyze"]),
         "missing command; expected one of: compress, analyze"),
        (.unknownCommand("compres", suggestion: "compress", available: ["compress"]),
         "unknown command 'compres'; did you mean 'compress'?"),
        (.unknownCommand("zip", suggestion: nil, available: ["compress", "analyze"]),
         "unknown command 'zip'; expected one of: compress, analyze"),
        (.unknownOption("--prest", command: "compress", suggestion: "--preset"),
         "unknown option '--prest' for 'compress'; did you mean '--preset'?"),
        (.unknownOption("--prest", command: nil, suggestion: nil), "unknown option '--prest'"),
        (.missingValue(option: "--preset", valueName: "NAME", allowedValues: ["low", "high"]),
         "missing value for option '--preset'; expected NAME (one of: low, high)"),
        (.missingValue(option: "--output", valueName: "PATH", allowedValues: []),
         "missing value for option '--output'; expected PATH"),
        (.unexpectedValue(option: "--overwrite", value: "yes"),
         "option '--overwrite' is a flag and takes no value; remove '=yes'"),
        (.invalidChoice(option: "--preset", value: "hihg", allowedValues: ["low", "medium", "high"], suggestion: "high"),
         "invalid value 'hihg' for '--preset'; expected one of: low, medium, high; did you mean 'high'?"),
        (.invalidChoice(option: "--preset", value: "x", allowedValues: ["low", "high"], suggestion: nil),
         "invalid value 'x' for '--preset'; expected one of: low, high"),
        (.repeatedOption("--output"), "option '--output' was given more than once; give it once"),
        (.unexpectedPositional("b.mp4", command: "compress", expected: "INPUT"),
         "unexpected extra argument 'b.mp4'; 'compress' takes INPUT"),
        (.unexpectedPositional("b", command: "list", expected: ""),
         "unexpected extra argument 'b'; 'list' takes no arguments"),
        (.missingPositional("INPUT", command: "compress"), "missing required argument INPUT for 'compress'"),
        (.invalidValue(option: "--fps", value: "x", reason: "expected a number"),
         "invalid value 'x' for '--fps': expected a number"),
    ])
    func messages(error: ArgumentError, message: String) {
        #expect(error.description == message)
        #expect(!error.description.contains("\n"))
    }

    @Test("the whole message for a typo")
    func typoMessage() {
        #expect(parseError(["compress", "in.mp4", "--prest", "low"])?.description
            == "unknown option '--prest' for 'compress'; did you mean '--preset'?")
    }
}
