import ReelArguments
import Testing

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
            .value("output", short: "o", valueName: "PATH", help: "Where to write the video."),
            .value(
                "preset", valueName: "NAME", help: "Quality preset.",
                allowedValues: ["low", "medium", "high"]),
            .value("bitrate", valueName: "RATE", help: "Target video bitrate, e.g. 2M or 800k."),
            .value("start", valueName: "TIME", help: "Offset to start from; may be negative."),
            .value("range", valueName: "RANGES", help: "Keep only these ranges.", repeatable: true),
            .flag("overwrite", short: "y", help: "Replace OUTPUT if it exists."),
            .flag("verbose", short: "v", help: "Say more.", repeatable: true),
        ],
        positionals: [PositionalSpec(name: "INPUT", help: "The video to compress.")]
    )

    static let analyze = CommandSpec(
        name: "analyze",
        abstract: "Find the best moments of one or more videos.",
        options: [.value("shard", valueName: "K/N", help: "Process only this share of inputs.")],
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
