import Foundation
import PackagePlugin

/// Compiles the preset JSON files in `Presets/` into the ReelKit target, so the `reel` binary
/// carries its presets and keeps working when copied alone, without a resource bundle.
@main
struct EmbedPresets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let presetsDirectory = context.package.directoryURL.appending(path: "Presets")
        let presetFiles = try FileManager.default
            .contentsOfDirectory(at: presetsDirectory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPresetFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(presetFiles.count) preset files",
                executable: try context.tool(named: "PresetEmbedder").url,
                arguments: [output.path] + presetFiles.map(\.path),
                inputFiles: presetFiles,
                outputFiles: [output]
            ),
        ]
    }
}
