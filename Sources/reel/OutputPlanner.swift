import Foundation
import ReelKit

/// What will happen to one input.
enum PlannedAction: Sendable, Equatable {
    /// Compress it.
    case compress
    /// Leave it: its output is already complete (the reason says so).
    case skip(String)
    /// Refuse it before starting, with this cause.
    case fail(String)
    /// A dry run only: it would be compressed, but its output exists and the run needs
    /// `--overwrite` (the message says so); the plan is shown all the same.
    case compressNeedingOverwrite(String)
}

/// One input, its output, and what will happen to it.
struct PlannedFile: Sendable {
    /// The source.
    let input: InputItem
    /// Where the output goes.
    let output: URL
    /// The output path for messages, built from what the user typed.
    let outputDisplay: String
    /// Compress, skip or fail.
    let action: PlannedAction
}

/// Names outputs (`IN-compressed.EXT`, in `--output-dir` or next to the input, or `-o`) and
/// decides, before any work starts, which inputs to compress, skip or refuse.
struct OutputPlanner {
    /// `-o`, for a single input.
    let outputFile: String?
    /// `--output-dir`.
    let outputDirectory: String?
    /// The container, which gives the extension.
    let fileType: OutputFileType
    /// `--overwrite`.
    let overwrite: Bool
    /// Whether this is a batch (existing complete outputs are skipped, not refused).
    let isBatch: Bool

    /// The suffix added to the input's name (`-compressed`, or `-highlights` for reels).
    var suffix = "-compressed"
    /// Whether this is a dry run: an existing output is noted, not refused, so the plan shows.
    var dryRun = false
    /// How long the output of an input should last with these settings, when known before
    /// compressing (an existing output much shorter than that is not complete).
    var expectedDuration: (URL) -> Double? = { _ in nil }

    /// The output of `input`, and how to show it.
    func output(for input: InputItem) -> (url: URL, display: String) {
        if let outputFile {
            return (URL(fileURLWithPath: outputFile).standardizedFileURL, outputFile)
        }
        let name = input.url.deletingPathExtension().lastPathComponent + suffix + "."
            + fileType.fileExtension
        let directory: String
        if let outputDirectory {
            directory = outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/"
        } else if let slash = input.display.lastIndex(of: "/") {
            directory = String(input.display[...slash])
        } else {
            directory = ""
        }
        let display = directory + name
        return (URL(fileURLWithPath: display).standardizedFileURL, display)
    }

    /// `inputs` without those that are another input's output (a previous run's results
    /// lying among the sources), so the list, and every shard of it, is the same before and
    /// after a run.
    func excludingOutputs(_ inputs: [InputItem]) -> [InputItem] {
        let outputs = Set(inputs.map { output(for: $0).url.path })
        return inputs.filter { !outputs.contains($0.url.path) }
    }

    /// The plan for each of `selected`; `all` is the whole (unsharded) list, used to detect
    /// two inputs that would write the same output.
    func plan(_ selected: [InputItem], among all: [InputItem]) -> [PlannedFile] {
        var owners: [String: InputItem] = [:]
        for input in all where owners[output(for: input).url.path] == nil {
            owners[output(for: input).url.path] = input
        }
        return selected.map { input in
            let (url, display) = output(for: input)
            let owner = owners[url.path]
            let action: PlannedAction
            if let owner, owner != input {
                action = .fail("\(display): output would collide with that of \(owner.display)")
            } else {
                action = decide(input: input, output: url, display: display)
            }
            return PlannedFile(input: input, output: url, outputDisplay: display, action: action)
        }
    }

    /// Compress, skip or refuse, from what is on disk.
    private func decide(input: InputItem, output: URL, display: String) -> PlannedAction {
        let outputPath = output.resolvingSymlinksInPath().path
        if outputPath == input.url.resolvingSymlinksInPath().path {
            return .fail("\(input.display): the output would overwrite the input; choose another")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory) else {
            return .compress
        }
        if isDirectory.boolValue { return .fail("\(display): is a directory, not an output file") }
        if overwrite { return .compress }
        guard isBatch else {
            if dryRun { return .compressNeedingOverwrite("\(display): already exists; the run needs --overwrite to replace it") }
            return .fail("\(display): already exists; pass --overwrite to replace it")
        }
        if let problem = MediaInfo.incompleteness(of: output, expectedDuration: expectedDuration(input.url)) {
            return .fail("\(display): exists but \(problem); pass --overwrite")
        }
        return .skip("output already exists")
    }
}
