import Foundation
import ReelArguments
import ReelKit

/// `reel split`: one file per shot, per highlight, or per part between pauses of a video.
struct SplitCommand: ReelCommand {
    /// `-o DIR` and `--overwrite`.
    static let outputShape = OutputOptions.Shape(
        valueName: "DIR", help: "The directory to write the pieces to (created if missing).", generatedSuffix: nil,
        overwrite: "Replace existing pieces.")
    /// The encoding groups beyond preset, picture and audio: each piece is one range, copied or
    /// encoded on its own, so no trim, join or target.
    static let encoding: ConfigOverrides.Groups = [.reducer, .copy]

    /// The keys of the split's own options.
    enum Keys {
        static let shots = FlagKey("shots", help: "One file per shot.")
        static let highlights = FlagKey("highlights", help: "One file per highlight (as 'reel analyze' lists them).")
    }

    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "split",
            abstract: "Write one file per shot, per highlight or per part between pauses of a video.",
            discussion: """
                Analyzes the video (or takes a saved analysis with --analysis) and writes each \
                shot (--shots) or each highlight (--highlights) to DIR as NAME-shot-001-12.50s.EXT, \
                numbered in time order and named with its start time. A fade through black is \
                cut in the black (its fade out stays with the shot before, its fade in with the \
                shot after), and a shot under half a second at the video's start or end (a black \
                first frame) joins its neighbour instead of becoming a file. Each piece is re-encoded \
                with the preset and options of 'reel compress', or with --copy cut losslessly on \
                keyframes (so a piece may start a little earlier than its shot). With \
                --cut-silence (or --cut-still) each part a dead-air cut keeps is a piece, \
                NAME-part-001-1.32s.EXT, and no analysis runs (see 'reel compress --help', \
                "Dead air"; not with --copy). Every piece is written under a temporary name and \
                renamed when complete.
                """,
            examples: [
                "reel split film.mkv --shots -o shots/",
                "reel split match.mp4 --highlights -o best/ --preset social",
                "reel split match.mp4 --shots -o cuts/ --copy --analysis match.json",
                "reel split lecture.mp4 --cut-silence --min-pause 2s -o parts/",
            ],
            options: OutputOptions.specs(outputShape) + [Keys.shots.spec, Keys.highlights.spec] + PauseCutOptions.specs
                + AnalysisOptions.specs(.savedAnalysis) + ConfigOverrides.specs(presetNames: presetNames, encoding)
                + ConsoleOptions.specs(.standard),
            positionals: [PositionalSpec(name: "INPUT", help: "The video to split.")])
    }

    /// The video.
    let input: InputItem
    /// Pieces per shot (`--shots`) or per highlight.
    let byShot: Bool
    /// `--cut-silence`, `--cut-still`: pieces per part kept between pauses instead.
    let pauses: PauseCutOptions
    /// The directory, as typed.
    let directoryPath: String
    let output: OutputOptions
    let analysis: AnalysisOptions
    let overrides: ConfigOverrides
    let console: ConsoleOptions
    /// The presets `--preset` may name.
    let catalog: PresetCatalog
    /// The compressor that encodes (or copies) each piece.
    let compressor = VideoCompressor()

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        input = InputItem(display: arguments.positional("INPUT") ?? "")
        overrides = try ConfigOverrides(arguments, Self.encoding)
        pauses = try PauseCutOptions(arguments)
        let shots: Bool, highlights: Bool
        do throws(ArgumentError) {
            shots = try arguments.isSet(Keys.shots)
            highlights = try arguments.isSet(Keys.highlights)
            output = try OutputOptions(arguments, Self.outputShape)
            analysis = try AnalysisOptions(arguments, .savedAnalysis)
            console = try ConsoleOptions(arguments, .standard)
        } catch {
            throw CommandFailure(error)
        }
        guard [shots, highlights, pauses.options != nil].filter({ $0 }).count == 1 else {
            throw .usage("give one of --shots, --highlights and --cut-silence (or --cut-still)")
        }
        if pauses.options != nil, overrides.copy?.isSet == true {
            throw .usage("the parts between pauses start and end on the pauses' edges, and --copy only on keyframes: drop one of the two")
        }
        guard let directoryPath = output.path else { throw .usage("give the directory to write to with -o DIR") }
        byShot = shots
        self.directoryPath = directoryPath
        self.catalog = catalog
    }

    func cancel() {
        compressor.cancel()
    }

    /// Splits the video; returns the exit status (128 + the signal that stopped it).
    func run(signals: SignalHandling) async -> Int32 {
        let config: ValidatedConfig
        do throws(CommandFailure) {
            config = try overrides.config(catalog: catalog).checkedForRun()
        } catch {
            Console.error(error.message)
            return error.status
        }
        let directory = URL(fileURLWithPath: directoryPath).standardizedFileURL
        let fileExtension = config.config.fileType.fileExtension
        // The pieces' names come from the analysis; their folder is checked before it runs.
        guard OutputOptions.mayWrite(directory.appendingPathComponent("piece.\(fileExtension)"), shown: directoryPath,
                                     for: input.url, overwrite: true) else {
            return ExitStatus.failure
        }
        let quiet = !console.showsProgress
        var written: [(range: TimeRange, output: URL, size: Int64)] = []
        do throws(ReelError) {
            let source = try await compressor.probe(input.url)
            let kind: String, ranges: [TimeRange]
            if let options = pauses.options {
                kind = "part"
                // Nothing loud enough is an error saying so (`ReelError.nothingToKeep`).
                ranges = try await DeadAirCut(options: options).plan(of: source) { _ in }.ranges
            } else {
                let analysis = try await SavedAnalysisFile.analysis(of: input, saved: self.analysis.saved, quiet: quiet)
                kind = byShot ? "shot" : "highlight"
                ranges = kind == "shot" ? analysis.shotPieces() : HighlightAnalysisRequest().highlights(in: analysis)
            }
            guard !ranges.isEmpty else {
                Console.error("\(input.display): nothing to keep: no \(kind)s (nothing in it stands out)")
                return ExitStatus.failure
            }
            let base = input.url.deletingPathExtension().lastPathComponent
            let names = ranges.enumerated().map { index, range in
                String(format: "%@-%@-%03d-%.2fs.%@", base, kind, index + 1, range.start.seconds, fileExtension)
            }
            // Every piece's name is checked before the first is encoded.
            for name in names where !output.mayWrite(directory.appendingPathComponent(name), shown: "\(directoryPath)/\(name)",
                                                      for: input.url) {
                return ExitStatus.failure
            }
            for (index, (range, name)) in zip(ranges, names).enumerated() {
                if !quiet { Console.printErr("\r\(kind) \(index + 1) of \(ranges.count)") }
                let piece = config.keeping([range]).writing(to: directory.appendingPathComponent(name))
                let result = try await compressor.compressVideo(source, config: piece, frameReducer: overrides.frameReducer)
                written.append((range, result.url, result.analytics.compressedFileSize))
            }
            if !quiet { Console.printErr("\r\u{1B}[K") }
        } catch .cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); \(written.count) pieces were written")
            return ExitStatus.interrupted(by: signal)
        } catch {
            Console.error(ErrorText.line(for: error, input: input))
            return ExitStatus.failure
        }
        report(written)
        return ExitStatus.success
    }

    /// One line per piece, or one JSON object.
    private func report(_ written: [(range: TimeRange, output: URL, size: Int64)]) {
        let shown = { (url: URL) in (directoryPath as NSString).appendingPathComponent(url.lastPathComponent) }
        if console.json {
            Console.printOut(JSONValue.object([
                ("source", .string(input.display)),
                ("pieces", .array(written.map { piece in
                    .object([
                        ("start", JSONValue(piece.range.start.seconds)), ("end", JSONValue(piece.range.end.seconds)),
                        ("output", .string(shown(piece.output))), ("fileSize", JSONValue(piece.size)),
                    ])
                })),
            ]).rendered())
        } else {
            for piece in written {
                Console.printOut("\(Formatting.clock(piece.range.start.seconds))-\(Formatting.clock(piece.range.end.seconds)) -> "
                    + "\(shown(piece.output)) (\(Formatting.bytes(piece.size)))")
            }
        }
    }
}
