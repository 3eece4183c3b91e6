import Foundation
import ReelArguments
import ReelKit

// reel: parse the command line, run the command, exit with its status.
// 0 success, 1 a file failed, 2 usage error, 128 + signal when interrupted.

let catalog = PresetCatalog.load()
let tool = ToolDefinition.tool(presetNames: catalog.names)

#if DEBUG
// Debug builds (and so the end-to-end tests) refuse to run with an unsound tool spec.
let specProblems = tool.validationProblems()
if !specProblems.isEmpty {
    Console.error("internal error: the tool spec is unsound: "
        + specProblems.joined(separator: "; "))
    exit(70)
}
#endif

let outcome: ParseOutcome
do {
    outcome = try tool.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Console.error(error.description)
    exit(ExitStatus.usage)
}

let status: Int32
switch outcome {
case .version:
    Console.printOut(HelpFormatter(tool: tool).versionText)
    status = ExitStatus.success
case .help(let command):
    Console.printOut(HelpFormatter(tool: tool, width: Console.helpWidth)
        .help(forCommandNamed: command))
    status = ExitStatus.success
case .run(let arguments):
    switch arguments.command {
    case "compress", "highlights":
        let command = CompressCommand(
            arguments: arguments, catalog: catalog, makesHighlightReels: arguments.command == "highlights")
        let compressor = VideoCompressor()
        let signals = SignalHandling()
        status = await signals.run(onSignal: { compressor.cancel() }) {
            await command.run(compressor: compressor, signals: signals)
        }
    case "report":
        let command = ReportCommand(arguments: arguments)
        let signals = SignalHandling()
        status = await signals.run(onSignal: {}) { await command.run(signals: signals) }
    case "split":
        let command = SplitCommand(arguments: arguments, catalog: catalog)
        let compressor = VideoCompressor()
        let signals = SignalHandling()
        status = await signals.run(onSignal: { compressor.cancel() }) {
            await command.run(compressor: compressor, signals: signals)
        }
    case "plan":
        let command = PlanCommand(arguments: arguments, catalog: catalog)
        let signals = SignalHandling()
        status = await signals.run(onSignal: {}) { await command.run(signals: signals) }
    case "encode-chunk":
        let command = EncodeChunkCommand(arguments: arguments)
        let compressor = VideoCompressor()
        let signals = SignalHandling()
        status = await signals.run(onSignal: { compressor.cancel() }) {
            await command.run(compressor: compressor, signals: signals)
        }
    case "assemble":
        let command = AssembleCommand(arguments: arguments)
        let signals = SignalHandling()
        status = await signals.run(onSignal: {}) { await command.run(signals: signals) }
    case "probe":
        status = ProbeCommand(arguments: arguments).run()
    case "thumbnail":
        let command = ThumbnailCommand(arguments: arguments)
        let signals = SignalHandling()
        status = await signals.run(onSignal: {}) { await command.run(signals: signals) }
    case "analyze":
        let command = AnalyzeCommand(arguments: arguments)
        let signals = SignalHandling()
        status = await signals.run(onSignal: {}) { await command.run(signals: signals) }
    case "faces":
        let command = FacesCommand(arguments: arguments)
        let signals = SignalHandling()
        status = await signals.run(onSignal: {}) { await command.run(signals: signals) }
    case "presets":
        status = PresetsCommand(arguments: arguments, catalog: catalog).run()
    default:
        Console.error("unknown command '\(arguments.command)'")
        status = ExitStatus.usage
    }
}
exit(status)
