import Foundation
import ReelArguments
import ReelKit

/// `reel split`: one file per shot or per highlight of a video.
struct SplitCommand {
    /// The command's declaration: the split's own options and `compress`'s encoding options.
    static func spec(presetNames: [String]) -> CommandSpec {
        let excluded: Set<String> = [
            "output", "output-dir", "start", "end", "ranges", "crossfade", "jobs", "shard", "dry-run", "target-size", "target-quality",
        ]
        return CommandSpec(
            name: "split",
            abstract: "Write one file per shot or per highlight of a video.",
            discussion: """
                Analyzes the video (or takes a saved analysis with --analysis) and writes each \
                shot (--shots) or each highlight (--highlights) to DIR as NAME-shot-001-12.50s.EXT, \
                numbered in time order and named with its start time. Each piece is re-encoded \
                with the preset and options of 'reel compress', or with --copy cut losslessly on \
                keyframes (so a piece may start a little earlier than its shot). Every piece is \
                written under a temporary name and renamed when complete.
                """,
            examples: [
                "reel split film.mkv --shots -o shots/",
                "reel split match.mp4 --highlights -o best/ --preset social",
                "reel split match.mp4 --shots -o cuts/ --copy --analysis match.json",
            ],
            options: [
                .value("output", short: "o", valueName: "DIR", help: "The directory to write the pieces to (created if missing)."),
                .flag("shots", help: "One file per shot."),
                .flag("highlights", help: "One file per highlight (as 'reel analyze' lists them)."),
                .value("analysis", valueName: "FILE", help: "Use this saved analysis ('reel analyze IN --json > FILE')."),
            ] + CompressHelp.options(presetNames: presetNames).filter { !excluded.contains($0.name) },
            positionals: [PositionalSpec(name: "INPUT", help: "The video to split.")])
    }

    let arguments: ParsedArguments
    let catalog: PresetCatalog

    /// Splits the video; returns the exit status (128 + the signal that stopped it).
    func run(compressor: VideoCompressor, signals: SignalHandling) async -> Int32 {
        let input = InputItem(display: arguments.positional("INPUT") ?? "")
        guard arguments.flag("shots") != arguments.flag("highlights") else {
            Console.error("give one of --shots and --highlights")
            return ExitStatus.usage
        }
        guard let directoryPath = arguments.value("output") else {
            Console.error("give the directory to write to with -o DIR")
            return ExitStatus.usage
        }
        let config: CompressionConfig
        let saved: VideoAnalysis?
        do {
            (config, _) = try ConfigOverrides(arguments: arguments, catalog: catalog).resolve()
            saved = try arguments.value("analysis").map(SavedAnalysisFile.load)
        } catch let failure as CommandFailure {
            Console.error(failure.message)
            return failure.status
        } catch let error as ArgumentError {
            Console.error(error.description)
            return ExitStatus.usage
        } catch {
            Console.error("\(error)")
            return ExitStatus.usage
        }
        let directory = URL(fileURLWithPath: directoryPath).standardizedFileURL
        let quiet = arguments.flag("quiet") || !Console.errorIsTerminal
        var written: [(range: TimeRange, output: URL, size: Int64)] = []
        do {
            let analysis = try await SavedAnalysisFile.analysis(of: input, saved: saved, quiet: quiet)
            let kind = arguments.flag("shots") ? "shot" : "highlight"
            let ranges = kind == "shot" ? analysis.shots : HighlightAnalysisRequest().highlights(in: analysis)
            guard !ranges.isEmpty else {
                Console.error("\(input.display): has no \(kind)s to write")
                return ExitStatus.failure
            }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let base = input.url.deletingPathExtension().lastPathComponent
            for (index, range) in ranges.enumerated() {
                var piece = config
                piece.trim = .ranges([range])
                let name = String(format: "%@-%@-%03d-%.2fs.%@", base, kind, index + 1, range.start.seconds, config.fileType.fileExtension)
                piece.outputURL = directory.appendingPathComponent(name)
                guard arguments.mayWrite(directory.appendingPathComponent(name), shown: "\(directoryPath)/\(name)") else {
                    return ExitStatus.failure
                }
                if !quiet { Console.printErr("\r\(kind) \(index + 1) of \(ranges.count)") }
                let result = try await compressor.compressVideo(input.url, config: piece)
                written.append((range, result.url, result.analytics.compressedFileSize))
            }
            if !quiet { Console.printErr("\r\u{1B}[K") }
        } catch ReelError.cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); \(written.count) pieces were written")
            return ExitStatus.interrupted(by: signal)
        } catch let error as ReelError {
            Console.error(ErrorText.line(for: error, input: input))
            return ExitStatus.failure
        } catch {
            Console.error("\(directoryPath): cannot create the directory: \(error.localizedDescription)")
            return ExitStatus.failure
        }
        report(written, input: input, directory: directoryPath)
        return ExitStatus.success
    }

    /// One line per piece, or one JSON object.
    private func report(_ written: [(range: TimeRange, output: URL, size: Int64)], input: InputItem, directory: String) {
        let shown = { (url: URL) in (directory as NSString).appendingPathComponent(url.lastPathComponent) }
        if arguments.flag("json") {
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
