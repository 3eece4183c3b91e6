import Foundation
import ReelArguments
import ReelKit

/// `-p, --preset`, `--preset-file` and `--format`: the settings an encode starts from.
struct PresetOptions: Sendable {
    /// The keys; `--preset`'s allowed names are known only at run time (user presets).
    enum Keys {
        static let preset = OptionKey<String>(
            "preset", short: "p", valueName: "NAME", help: "Starting settings; see 'reel presets'. Default: medium.")
        static let presetFile = OptionKey<String>(
            "preset-file", valueName: "FILE", help: "Starting settings from a preset JSON file.")
        static let format = OptionKey<OutputFileType>("format", valueName: "FORMAT", help: "Output container.")
    }

    /// The declarations; `presetNames` are the names `--preset` accepts.
    static func specs(presetNames: [String]) -> [OptionSpec] {
        [Keys.preset.declared(allowedValues: presetNames).spec, Keys.presetFile.spec, Keys.format.spec]
    }

    /// `--preset`.
    let name: String?
    /// `--preset-file`.
    let file: String?
    /// `--format`.
    let format: OutputFileType?

    /// Reads the options; a preset and a preset file together are a usage failure.
    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        do throws(ArgumentError) {
            name = try arguments.value(Keys.preset)
            file = try arguments.value(Keys.presetFile)
            format = try arguments.value(Keys.format)
        } catch {
            throw CommandFailure(error)
        }
        if name != nil, file != nil {
            throw .usage("give either --preset or --preset-file, not both")
        }
    }

    /// The chosen preset's configuration (medium when none is named), with `--format` applied.
    ///
    /// A preset file that cannot be read or used is a plain failure, naming it as typed.
    func config(catalog: PresetCatalog) throws(CommandFailure) -> CompressionConfig {
        var config: CompressionConfig
        if let file {
            let url = URL(fileURLWithPath: file)
            do {
                config = try Preset.load(from: url).config
            } catch {
                throw .failure(error.description.replacingOccurrences(of: url.path, with: file))
            }
        } else {
            let name = name ?? VideoQuality.mediumQuality.presetName
            guard let entry = catalog.entry(named: name) else {
                throw .usage("unknown preset '\(name)'; see 'reel presets'")
            }
            config = entry.preset.config
        }
        if let format { config.fileType = format }
        return config
    }
}
