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
    exit(ExitStatus.internalError)
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
    guard let type = ToolDefinition.command(for: arguments) else {
        Console.error("unknown command '\(arguments.command)'")
        exit(ExitStatus.usage)
    }
    let command: any ReelCommand
    do {
        command = try type.init(arguments, catalog: catalog)
    } catch {
        Console.error(error.message)
        exit(error.status)
    }
    if type.handlesSignals {
        let signals = SignalHandling()
        status = await signals.run(onSignal: { command.cancel() }) { await command.run(signals: signals) }
    } else {
        status = await command.run(signals: SignalHandling())
    }
}
exit(status)
