import Foundation
import ReelArguments
import ReelKit

/// `reel highlights`: `reel compress` whose output is a highlight reel of each input.
struct HighlightsCommand: ReelCommand {
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
                order, the sound overlapping for 20 ms at each cut. Every option of 'reel compress' \
                applies except --start, --end and --ranges (the reel picks its own ranges) and the dead-air cuts; \
                --dry-run prints the ranges it would keep and the joins that would dissolve, \
                --dry-run --json as plannedRanges and dissolvingJoins. \
                Output: IN-highlights.EXT.
                """,
            examples: [
                "reel highlights match.mp4 --max-duration 30 --preset social --crossfade 0.5",
                "reel highlights match.mp4 --min-level 6 -o best.mp4 --json",
                "reel highlights ~/clips/ --output-dir reels/ --max-duration 20 --jobs 2",
            ],
            options: CompressOptions.specs(presetNames: presetNames, .highlights),
            positionals: [
                PositionalSpec(name: "INPUT", help: "Video files or directories.", isVariadic: true),
            ])
    }

    /// The compression that makes the reels.
    let compress: CompressCommand

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        compress = try CompressCommand(arguments, catalog: catalog, kind: .highlights)
    }

    func run(signals: SignalHandling) async -> Int32 {
        await compress.run(signals: signals)
    }

    func cancel() {
        compress.cancel()
    }
}

/// `--max-duration` and `--min-level`: the reel options of `reel highlights`.
struct HighlightOptions: Sendable {
    /// The keys.
    enum Keys {
        static let maxDuration = OptionKey<Double>(
            "max-duration", valueName: "SECONDS", help: "Longest the reel may be, e.g. 30.", parse: ValueParsers.seconds)
        static let minLevel = OptionKey<Double>(
            "min-level", valueName: "LEVEL", help: "Lowest engagement level (0-9) a part may have.",
            parse: { text, option throws(ArgumentError) in
                // A level from 0 to 9; 0 (every part may be picked) is a level too.
                guard let level = Double(text), level >= 0, level <= 9 else {
                    throw .invalidValue(option: option, value: text, reason: "levels go from 0 to 9")
                }
                return level
            })

        static let faces = OptionKey<String>(
            "faces", valueName: "DIR", help: "Face index (see 'reel faces') for --person.")
        static let person = OptionKey<String>(
            "person", valueName: "ENTITY",
            help: "A reel of this person of the --faces index: only moments they are on screen, their strongest "
                + "filling at least half their screen time unless --min-level is given; with --aspect, framed on them. "
                + "A video not in the index yet is added to it first.")
    }

    /// The declarations, in help order.
    static let specs = [Keys.maxDuration.spec, Keys.minLevel.spec, Keys.faces.spec, Keys.person.spec]

    /// `--max-duration`.
    let maximumDuration: Double?
    /// `--min-level`.
    let minimumLevel: Double?
    /// `--faces` and `--person`.
    let person: ReelPerson?

    /// Reads the options; a level outside 0...9 is a usage failure.
    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        do throws(ArgumentError) {
            maximumDuration = try arguments.value(Keys.maxDuration)
            minimumLevel = try arguments.value(Keys.minLevel)
            let index = try arguments.value(Keys.faces), entity = try arguments.value(Keys.person)
            switch (index, entity) {
            case let (index?, entity?):
                person = ReelPerson(faceIndex: URL(fileURLWithPath: index, isDirectory: true), entityID: FaceEntityID(entity))
            case (nil, let entity?):
                throw ArgumentError.invalidValue(option: "--person", value: entity, reason: "give the face index it is in with --faces DIR")
            case (let index?, nil):
                throw ArgumentError.invalidValue(option: "--faces", value: index, reason: "--faces is for --person ENTITY")
            case (nil, nil):
                person = nil
            }
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The library's reel options; `analysis` is a saved analysis to use instead of a fresh one.
    func reelOptions(analysis: VideoAnalysis?) -> HighlightReelOptions {
        HighlightReelOptions(maximumDuration: maximumDuration, minimumLevel: minimumLevel.map { Float($0) }, analysis: analysis,
                             person: person)
    }
}
