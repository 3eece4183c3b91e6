@testable import reel
import ReelArguments
import Testing

/// Each command reads exactly the options it declares: reading one it does not declare is an
/// internal error, and an option it declares but never reads would be accepted and ignored.
@Suite(.timeLimit(.minutes(5))) struct OptionReadTests {
    /// The built-in presets only, whatever the machine's user presets are.
    static let catalog = PresetCatalog.load(environment: ["REEL_PRESETS_DIR": "/nonexistent/reel-presets"])

    /// Every command and subcommand that runs: its path, its declaration and its type.
    static let runnable: [(path: [String], spec: CommandSpec, type: any ReelCommand.Type)] = {
        var result: [(path: [String], spec: CommandSpec, type: any ReelCommand.Type)] = []
        func collect(_ spec: CommandSpec, path: [String], type: any ReelCommand.Type) {
            if spec.subcommands.isEmpty { result.append((path, spec, type)) }
            for subcommand in spec.subcommands { collect(subcommand, path: path + [subcommand.name], type: type) }
        }
        for type in ToolDefinition.commands {
            let spec = type.spec(presetNames: catalog.names)
            collect(spec, path: [spec.name], type: type)
        }
        return result
    }()

    @Test func theToolSpecIsSound() {
        #expect(ToolDefinition.tool(presetNames: Self.catalog.names).validationProblems() == [])
    }

    @Test func everyCommandReadsOnlyOptionsItDeclares() {
        #expect(Self.runnable.count >= ToolDefinition.commands.count)
        for (path, spec, type) in Self.runnable {
            let arguments = ParsedArguments(commandPath: path, declaring: spec.options)
            do {
                _ = try type.init(arguments, catalog: Self.catalog)
            } catch {
                // Some commands need an option (split -o DIR): a usage failure is fine here.
                #expect(error.status == ExitStatus.usage, "\(path): \(error.message)")
            }
        }
    }

    @Test func everyDeclaredOptionIsRead() {
        for (path, spec, type) in Self.runnable {
            let name = path.joined(separator: " ")
            for option in spec.options {
                // Declared without `option`, a command that reads it fails there.
                let arguments = ParsedArguments(commandPath: path, declaring: spec.options.filter { $0.name != option.name })
                var failure: CommandFailure?
                do {
                    _ = try type.init(arguments, catalog: Self.catalog)
                } catch {
                    failure = error
                }
                guard failure?.argumentError == .undeclaredOption(option.displayName, command: name) else {
                    let ending = failure?.message ?? "no failure"
                    Issue.record("'\(name)' never reads \(option.displayName), so it would accept it and ignore it (reading ended with: \(ending))")
                    continue
                }
                #expect(failure?.status == ExitStatus.internalError)
            }
        }
    }

    /// The commands built from compress's groups take what the brief of each says: highlights
    /// all but the trim, split and plan each without what they cannot honour.
    @Test func derivedCommandsTakeTheirGroups() throws {
        func names(_ name: String) throws -> Set<String> {
            let type = try #require(ToolDefinition.commands.first { $0.spec(presetNames: []).name == name })
            return Set(type.spec(presetNames: Self.catalog.names).options.map(\.name))
        }
        let compress = try names("compress")
        let deadAir: Set<String> = ["cut-silence", "cut-still", "silence-level", "silence-margin", "min-pause"]
        #expect(try names("highlights") == compress.subtracting(["start", "end", "ranges"]).subtracting(deadAir)
            .union(["max-duration", "min-level", "faces", "person"]))
        #expect(try names("split") == compress.subtracting([
            "output-dir", "start", "end", "ranges", "crossfade", "fade", "jobs", "shard", "dry-run", "target-size", "target-quality", "report",
        ]).union(["shots", "highlights"]))
        // A chunked encode fades its first and last chunks but has no joins to crossfade.
        #expect(try names("plan") == compress.subtracting([
            "output-dir", "ranges", "crossfade", "jobs", "shard", "dry-run", "reducer", "seed", "copy", "report",
        ]).subtracting(deadAir).union(["chunk"]))
    }
}
