import Foundation
import ReelArguments
import ReelKit

/// `-o, --output`, `--output-dir` and `--overwrite`: where a command writes, and whether it may
/// replace what is there.
struct OutputOptions: Sendable {
    /// What a command's `-o` names and which of the other two options it takes.
    struct Shape: Sendable {
        /// The placeholder of `-o`'s value: `FILE` or `DIR`.
        var valueName: String
        /// The help of `-o`.
        var help: String
        /// The suffix of generated output names (`-compressed` makes `IN-compressed.EXT`); a
        /// command with one takes `--output-dir DIR` for them.
        var generatedSuffix: String?
        /// The help of `--overwrite`, or nil when the command never refuses to replace.
        var overwrite: String?
    }

    /// The keys, declared with each command's wording by `specs`.
    enum Keys {
        static let output = OptionKey<String>("output", short: "o", valueName: "FILE", help: "The file to write.")
        static let outputDirectory = OptionKey<String>("output-dir", valueName: "DIR", help: "The directory for outputs.")
        static let overwrite = FlagKey("overwrite", help: "Replace an existing output.")
    }

    /// The declarations `shape` takes.
    static func specs(_ shape: Shape) -> [OptionSpec] {
        var specs = [Keys.output.declared(valueName: shape.valueName, help: shape.help).spec]
        if let suffix = shape.generatedSuffix {
            specs.append(Keys.outputDirectory.declared(
                help: "Directory for outputs named IN\(suffix).EXT (created if missing).").spec)
        }
        if let help = shape.overwrite { specs.append(Keys.overwrite.declared(help: help).spec) }
        return specs
    }

    /// `-o`.
    let path: String?
    /// `--output-dir`.
    let directory: String?
    /// `--overwrite`.
    let overwrite: Bool
    /// The suffix of generated output names, as the shape gives it.
    let generatedSuffix: String?

    /// Reads the options `shape` takes (the same shape `specs` declared).
    init(_ arguments: ParsedArguments, _ shape: Shape) throws(ArgumentError) {
        path = try arguments.value(Keys.output)
        directory = shape.generatedSuffix == nil ? nil : try arguments.value(Keys.outputDirectory)
        overwrite = shape.overwrite == nil ? false : try arguments.isSet(Keys.overwrite)
        generatedSuffix = shape.generatedSuffix
    }

    /// Whether the command may write `output` (shown to the user as `shown`) as an output of
    /// `source`: it can be written there (`OutputCheck`), and it does not exist yet or
    /// `--overwrite` was given. When not, says why on standard error. Called before any work.
    func mayWrite(_ output: URL, shown: String, for source: URL) -> Bool {
        Self.mayWrite(output, shown: shown, for: source, overwrite: overwrite)
    }

    /// `mayWrite` for a command whose `--overwrite` is read elsewhere.
    static func mayWrite(_ output: URL, shown: String, for source: URL, overwrite: Bool) -> Bool {
        guard let problem = writeProblem(output, shown: shown, for: source, overwrite: overwrite) else { return true }
        Console.error(problem)
        return false
    }

    /// Why `output` (shown as `shown`) may not be written as an output of `source`, as the
    /// one-line message every command gives, or nil when it may.
    static func writeProblem(_ output: URL, shown: String, for source: URL, overwrite: Bool) -> String? {
        do throws(ReelError) {
            try OutputCheck.requireWritable(output, for: source)
        } catch {
            return "\(shown): \(error.cause)"
        }
        guard FileManager.default.fileExists(atPath: output.path) && !overwrite else { return nil }
        return "\(shown): already exists; use --overwrite to replace it"
    }
}
