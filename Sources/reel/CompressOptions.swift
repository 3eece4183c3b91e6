import Foundation
import ReelArguments
import ReelKit

/// The options of `reel compress` that steer the run rather than the encoding.
struct CompressOptions {
    /// The `INPUT...` arguments as typed.
    let inputs: [String]
    /// `-o FILE`.
    let outputFile: String?
    /// `--output-dir DIR`.
    let outputDirectory: String?
    /// `--overwrite`.
    let overwrite: Bool
    /// `--jobs N` (1 when absent).
    let jobs: Int
    /// `--shard K/N`.
    let shard: ParsedShard?
    /// `--dry-run`.
    let dryRun: Bool
    /// `--json`.
    let json: Bool
    /// `--quiet`.
    let quiet: Bool
    /// `--format`, when given.
    let format: OutputFileType?
    /// Whether this is a batch: several inputs, a directory, or a shard.
    let isBatch: Bool

    /// Reads the options, rejecting combinations that make no sense.
    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        inputs = arguments.positionalValues("INPUT")
        outputFile = arguments.value("output")
        outputDirectory = arguments.value("output-dir")
        overwrite = arguments.flag("overwrite")
        dryRun = arguments.flag("dry-run")
        json = arguments.flag("json")
        quiet = arguments.flag("quiet")
        format = arguments.value("format").flatMap(OutputFileType.init(rawValue:))
        do {
            jobs = try arguments.value("jobs", as: ValueParsers.positiveInteger) ?? 1
            shard = try arguments.value("shard", as: ValueParsers.shard)
        } catch {
            throw CommandFailure(error)
        }
        isBatch = inputs.count > 1 || shard != nil || InputCollection.containsDirectory(inputs)
        if outputFile != nil, outputDirectory != nil {
            throw .usage("give either -o/--output or --output-dir, not both")
        }
        if outputFile != nil, isBatch {
            throw .usage("-o/--output names the output of a single input; "
                + "use --output-dir DIR for several inputs or a directory")
        }
    }

    /// `--shard` as typed, for messages.
    var shardText: String {
        shard.map { "\($0.index)/\($0.count)" } ?? "1/1"
    }

    /// The container: `--format`, else the extension of `-o`, else the preset's.
    ///
    /// `-o` must end in `.mp4`, `.m4v` or `.mov`, and agree with `--format` when both are given.
    func fileType(presetDefault: OutputFileType) throws(CommandFailure) -> OutputFileType {
        guard let outputFile else { return format ?? presetDefault }
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
        default:
            throw .usage("-o \(outputFile): reel writes .mp4 or .mov files; "
                + "name the output with one of those extensions")
        }
        if let format, format != implied {
            throw .usage("-o \(outputFile) does not match --format \(format.rawValue)")
        }
        return implied
    }
}
