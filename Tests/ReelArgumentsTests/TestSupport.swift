import ReelArguments
import Testing

/// The fixture's `--preset` choices.
enum PresetName: String, CaseIterable {
    case low, medium, high
}

/// The typed keys of the fixture's `compress` and `analyze` options.
enum Keys {
    static let output = OptionKey<String>("output", short: "o", valueName: "PATH", help: "Where to write the video.")
    static let preset = OptionKey<PresetName>("preset", valueName: "NAME", help: "Quality preset.")
    static let bitrate = OptionKey<Int>(
        "bitrate", valueName: "RATE", help: "Target video bitrate, e.g. 2M or 800k.", parse: ValueParsers.bitrate)
    static let start = OptionKey<ParsedTime>(
        "start", valueName: "TIME", help: "Offset to start from; may be negative.", parse: ValueParsers.signedTime)
    static let range = OptionKey<[ParsedTimeRange]>(
        "range", valueName: "RANGES", help: "Keep only these ranges.", repeatable: true, parse: ValueParsers.timeRanges)
    static let overwrite = FlagKey("overwrite", short: "y", help: "Replace OUTPUT if it exists.")
    static let verbose = FlagKey("verbose", short: "v", help: "Say more.", repeatable: true)
    static let shard = OptionKey<ParsedShard>(
        "shard", valueName: "K/N", help: "Process only this share of inputs.", parse: ValueParsers.shard)
}

/// A small `reel`-like tool used by every test.
enum Fixtures {
    static let compress = CommandSpec(
        name: "compress",
        abstract: "Compress a video with a preset or explicit settings.",
        discussion: """
            Reads INPUT, re-encodes its video and audio, and writes the result to OUTPUT. \
            Explicit settings override the preset's.

            - Presets: low, medium and high trade size for quality in the obvious direction.
            """,
        examples: [
            "reel compress in.mp4 -o out.mp4 --preset medium",
            "reel compress holiday.mov --output small.mp4 --bitrate 2.5M --range 1.5-4,10-14.2 --overwrite",
        ],
        options: [
            Keys.output.spec, Keys.preset.spec, Keys.bitrate.spec, Keys.start.spec, Keys.range.spec,
            Keys.overwrite.spec, Keys.verbose.spec,
        ],
        positionals: [PositionalSpec(name: "INPUT", help: "The video to compress.")]
    )

    static let analyze = CommandSpec(
        name: "analyze",
        abstract: "Find the best moments of one or more videos.",
        options: [Keys.shard.spec],
        positionals: [PositionalSpec(name: "INPUTS", isVariadic: true)]
    )

    static let trim = CommandSpec(
        name: "trim",
        abstract: "Cut a video to ranges.",
        positionals: [
            PositionalSpec(name: "INPUT"),
            PositionalSpec(name: "OUTPUT", isOptional: true),
        ]
    )

    static let tool = ToolSpec(
        name: "reel",
        abstract: "Compress videos and find their best moments.",
        version: "1.2.3",
        commands: [compress, analyze, trim]
    )
}

/// A test failure raised by a helper.
struct UnexpectedOutcome: Error, CustomStringConvertible {
    let description: String
}

/// Parses `arguments` with the fixture tool and returns the arguments of a `.run` outcome.
func parseRun(_ arguments: [String]) throws -> ParsedArguments {
    let outcome = try Fixtures.tool.parse(arguments)
    guard case .run(let parsed) = outcome else {
        throw UnexpectedOutcome(description: "expected .run, got \(outcome)")
    }
    return parsed
}

/// The error that parsing `arguments` throws, or nil if it succeeds.
func parseError(_ arguments: [String]) -> ArgumentError? {
    do {
        _ = try Fixtures.tool.parse(arguments)
        return nil
    } catch {
        return error
    }
}

/// The description of the error `body` throws, or nil if it returns normally.
func thrownMessage<T>(_ body: () throws(ArgumentError) -> T) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.description
    }
}
