import Foundation
import ReelArguments
import ReelKit

/// The options of `reel compress` and `reel highlights`, read before any work starts.
struct CompressOptions: Sendable {
    /// What differs between the two commands: how outputs are named, which encoding groups they
    /// take, what `--analysis` is for, and whether the output is a highlight reel.
    struct Kind: Sendable {
        /// `-o`, `--output-dir` and `--overwrite`.
        let output: OutputOptions.Shape
        /// The encoding groups beyond preset, picture and audio.
        let encoding: ConfigOverrides.Groups
        /// `--analysis`.
        let analysis: AnalysisOptions.Shape
        /// Whether each output is a highlight reel (`--max-duration`, `--min-level`).
        let makesReels: Bool

        /// `reel compress`.
        static let compress = Kind(
            output: outputShape(suffix: "-compressed"),
            encoding: [.target, .reducer, .trim, .ranges, .pauses, .join, .copy],
            analysis: .init(saved: "The saved analysis ('reel analyze IN --json > FILE') that --report shows, "
                + "instead of analyzing again (one input)."),
            makesReels: false)

        /// `reel highlights`: compress's groups but the trim, whose ranges the reel picks.
        static let highlights = Kind(
            output: outputShape(suffix: "-highlights"),
            encoding: [.target, .reducer, .join, .copy],
            analysis: .init(saved: "Use this saved analysis ('reel analyze IN --json > FILE') instead of "
                + "analyzing again (one input)."),
            makesReels: true)

        /// Outputs named `IN<suffix>.EXT`, or `-o` for one input.
        private static func outputShape(suffix: String) -> OutputOptions.Shape {
            OutputOptions.Shape(
                valueName: "FILE", help: "Output file, for a single input (.mp4, .mov, .gif or .webp).", generatedSuffix: suffix,
                overwrite: "Replace existing outputs (batch: recompress them).")
        }
    }

    /// `--json` and `--quiet`.
    static let console = ConsoleOptions.Shape(
        json: "Print one JSON object with results and analytics.",
        quiet: "No progress and no summary; errors are still shown.")

    /// Every option of the command `kind` describes, in help order.
    static func specs(presetNames: [String], _ kind: Kind) -> [OptionSpec] {
        (kind.makesReels ? HighlightOptions.specs : []) + OutputOptions.specs(kind.output)
            + ConfigOverrides.specs(presetNames: presetNames, kind.encoding) + BatchOptions.specs
            + AnalysisOptions.specs(kind.analysis) + [ReportOption.result.spec] + ConsoleOptions.specs(console)
    }

    /// The `INPUT...` arguments as typed.
    let inputs: [String]
    /// The reel's options, for `highlights`.
    let reel: HighlightOptions?
    /// The encoding options.
    let overrides: ConfigOverrides
    /// Where outputs go.
    let output: OutputOptions
    /// `--jobs`, `--shard`, `--dry-run`.
    let batch: BatchOptions
    /// `--analysis`.
    let analysis: AnalysisOptions
    /// `--report`.
    let reportPage: String?
    /// `--json`, `--quiet`.
    let console: ConsoleOptions
    /// Whether this is a batch: several inputs, a directory, or a shard.
    let isBatch: Bool

    /// Reads the options, rejecting combinations that make no sense.
    init(_ arguments: ParsedArguments, _ kind: Kind) throws(CommandFailure) {
        inputs = arguments.positionalValues("INPUT")
        reel = kind.makesReels ? try HighlightOptions(arguments) : nil
        overrides = try ConfigOverrides(arguments, kind.encoding)
        do throws(ArgumentError) {
            output = try OutputOptions(arguments, kind.output)
            batch = try BatchOptions(arguments)
            analysis = try AnalysisOptions(arguments, kind.analysis)
            reportPage = try arguments.value(ReportOption.result)
            console = try ConsoleOptions(arguments, Self.console)
        } catch {
            throw CommandFailure(error)
        }
        isBatch = inputs.count > 1 || batch.shard != nil || InputCollection.containsDirectory(inputs)
        if output.path != nil, output.directory != nil {
            throw .usage("give either -o/--output or --output-dir, not both")
        }
        if output.path != nil, isBatch {
            throw .usage("-o/--output names the output of a single input; "
                + "use --output-dir DIR for several inputs or a directory")
        }
        if let page = reportPage, isBatch {
            throw CommandFailure(ArgumentError.invalidValue(
                option: "--report", value: page, reason: "a report is of one video; give one input"))
        }
        if let path = analysis.savedPath, isBatch {
            throw CommandFailure(ArgumentError.invalidValue(
                option: "--analysis", value: path, reason: "a saved analysis is of one video; give one input"))
        }
        if let path = analysis.savedPath, !kind.makesReels, reportPage == nil {
            throw CommandFailure(ArgumentError.invalidValue(
                option: "--analysis", value: path, reason: "compress uses a saved analysis for --report only; give --report FILE"))
        }
    }

    /// The container: `--format`, else the extension of `-o`, else the preset's.
    ///
    /// `-o` must end in `.mp4`, `.m4v`, `.mov`, `.webm`, `.mkv`, `.gif` or `.webp`, and agree
    /// with `--format` when both are given.
    func fileType(presetDefault: OutputFileType) throws(CommandFailure) -> OutputFileType {
        let format = overrides.preset.format
        guard let outputFile = output.path else { return format ?? presetDefault }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: outputFile, isDirectory: &isDirectory),
           isDirectory.boolValue {
            throw .usage("-o \(outputFile) is a directory; use --output-dir \(outputFile)")
        }
        let fileExtension = (outputFile as NSString).pathExtension.lowercased()
        let implied: OutputFileType
        switch fileExtension {
        case "mp4", "m4v": implied = .mp4
        case "mov", "qt": implied = .mov
        case "gif": implied = .gif
        case "webp": implied = .webp
        case "webm": implied = .webm
        case "mkv": implied = .mkv
        default:
            throw .usage("-o \(outputFile): reel writes .mp4, .mov, .webm, .mkv, .gif or .webp files; "
                + "name the output with one of those extensions")
        }
        if let format, format != implied {
            throw .usage("-o \(outputFile) does not match --format \(format.rawValue)")
        }
        return implied
    }
}
