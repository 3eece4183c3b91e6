import ReelArguments
import ReelKit

/// `reel highlights`: `reel compress` whose output is a highlight reel of each input.
enum HighlightsCommand {
    /// The command's declaration: every `compress` option plus the reel's own.
    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "highlights",
            abstract: "Make a highlight reel: analyze, keep the most engaging parts, compress them.",
            discussion: """
                Runs the analyzer (see 'reel analyze') and keeps the highlights: parts at \
                level 6 or above (--min-level), joined across gaps under 1.5 s, each at least \
                2 s, edges on nearby shot boundaries, repeated content once. With \
                --max-duration, the strongest parts spread over the video fill the budget \
                (crossfades count inside it). Only those ranges are compressed, joined in time \
                order with short audio fades at each join. Every option of 'reel compress' \
                applies except --start, --end and --ranges (the reel picks its own ranges); \
                --dry-run prints the ranges it would keep, --dry-run --json as plannedRanges. \
                Output: IN-highlights.EXT.
                """,
            examples: [
                "reel highlights match.mp4 --max-duration 30 --preset social --crossfade 0.5",
                "reel highlights match.mp4 --min-level 6 -o best.mp4 --json",
                "reel highlights ~/clips/ --output-dir reels/ --max-duration 20 --jobs 2",
            ],
            options: highlightOptions + CompressHelp.options(presetNames: presetNames).filter {
                !["start", "end", "ranges"].contains($0.name)
            },
            positionals: [
                PositionalSpec(name: "INPUT", help: "Video files or directories.", isVariadic: true),
            ])
    }

    private static let highlightOptions: [OptionSpec] = [
        .value("max-duration", valueName: "SECONDS", help: "Longest the reel may be, e.g. 30."),
        .value("min-level", valueName: "LEVEL", help: "Lowest engagement level (0-9) a part may have."),
        .value("analysis", valueName: "FILE",
               help: "Use this saved analysis ('reel analyze IN --json > FILE') instead of analyzing again (one input)."),
    ]
}

/// The reel options of `reel highlights`.
enum HighlightOptions {
    static func resolve(_ arguments: ParsedArguments) throws(CommandFailure) -> HighlightReelOptions {
        do throws(ArgumentError) {
            let budget = try arguments.value("max-duration", as: ValueParsers.seconds)
            let level = try arguments.value("min-level", as: ValueParsers.positiveDouble)
            if let level, level > 9 {
                throw .invalidValue(option: "--min-level", value: arguments.value("min-level") ?? "",
                                    reason: "levels go from 0 to 9")
            }
            let analysis = try arguments.value("analysis").map(SavedAnalysisFile.load)
            return HighlightReelOptions(maximumDuration: budget, minimumLevel: level.map { Float($0) }, analysis: analysis)
        } catch {
            throw CommandFailure(error)
        }
    }
}
