import Foundation
import ReelKit

/// A preset and where it came from.
struct PresetEntry {
    /// The preset.
    let preset: Preset
    /// The user file it was read from; nil for a built-in preset.
    let file: URL?

    /// `built-in` or the file's path, for display.
    var sourceDescription: String { file?.path ?? "built-in" }
}

/// Every preset `--preset` can name: the built-in ones, then the user's preset files.
struct PresetCatalog {
    /// The presets in display order; a user preset replaces a built-in one of the same name.
    let entries: [PresetEntry]
    /// User preset files that could not be used, one message each.
    let problems: [String]
    /// The directory user presets were looked for in.
    let userDirectory: URL

    /// The names `--preset` accepts, in display order.
    var names: [String] { entries.map(\.preset.name) }

    /// The preset named `name`, if any.
    func entry(named name: String) -> PresetEntry? {
        entries.first { $0.preset.name == name }
    }

    /// Reads the built-in presets and the user's preset directory.
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> PresetCatalog {
        let directory = userDirectory(environment: environment)
        var entries = orderedBuiltIns().map { PresetEntry(preset: $0, file: nil) }
        var problems: [String] = []
        for file in presetFiles(in: directory) {
            do {
                let preset = try Preset.load(from: file)
                let entry = PresetEntry(preset: preset, file: file)
                if let index = entries.firstIndex(where: { $0.preset.name == preset.name }) {
                    entries[index] = entry
                } else {
                    entries.append(entry)
                }
            } catch {
                problems.append(error.description)
            }
        }
        return PresetCatalog(entries: entries, problems: problems, userDirectory: directory)
    }

    /// The built-in presets from smallest to largest (`VideoQuality` order), then any others.
    private static func orderedBuiltIns() -> [Preset] {
        let order = VideoQuality.allCases.map(\.presetName)
        return Preset.builtIn.sorted { lhs, rhs in
            let left = order.firstIndex(of: lhs.name) ?? order.count
            let right = order.firstIndex(of: rhs.name) ?? order.count
            return left == right ? lhs.name < rhs.name : left < right
        }
    }

    /// `$REEL_PRESETS_DIR`, else `$XDG_CONFIG_HOME/reel/presets`, else `~/.config/reel/presets`.
    static func userDirectory(environment: [String: String]) -> URL {
        if let explicit = environment["REEL_PRESETS_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let config: URL
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            config = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            config = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config")
        }
        return config.appendingPathComponent("reel").appendingPathComponent("presets")
    }

    /// The `*.json` files directly in `directory`, sorted by name; none when it is missing.
    private static func presetFiles(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names
            .filter { $0.lowercased().hasSuffix(".json") && !$0.hasPrefix(".") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { directory.appendingPathComponent($0) }
    }
}
