import Foundation
import ReelArguments
import ReelKit

/// `reel assemble`: join the chunks of a plan into one file.
struct AssembleCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "assemble",
        abstract: "Join the chunks of a plan into one video, as a single encode would have made it.",
        discussion: """
            Checks that every job of the plan finished in DIR (its receipt names this plan; \
            each chunk holds its planned picture count, starts with a keyframe and has the \
            same codec headers), then joins the chunks by stream copy on the single encode's \
            timestamps and muxes the audio job's sound. Missing or wrong chunks are an error \
            listing the indices to run again. With a target size, the report says how far \
            the result is from it and which chunks went most over their share.
            """,
        examples: ["reel assemble film-plan.json --chunks chunks/ -o film.mp4"],
        options: [
            .value("chunks", valueName: "DIR", help: "The directory 'reel encode-chunk' wrote to."),
            .value("output", short: "o", valueName: "FILE", help: "The joined video to write."),
            .flag("overwrite", help: "Replace an existing output."),
            .flag("json", help: "Print one JSON object instead of text."),
            .flag("quiet", short: "q", help: "No progress on standard error."),
        ],
        positionals: [PositionalSpec(name: "PLAN", help: "The plan written by 'reel plan'.")])

    let arguments: ParsedArguments

    /// Joins the chunks; returns the exit status.
    func run(signals: SignalHandling) async -> Int32 {
        let planPath = arguments.positional("PLAN") ?? ""
        guard let chunks = arguments.value("chunks"), let shown = arguments.value("output") else {
            Console.error("give the chunks' directory with --chunks DIR and the output with -o FILE")
            return ExitStatus.usage
        }
        let output = URL(fileURLWithPath: shown).standardizedFileURL
        guard arguments.mayWrite(output, shown: shown) else { return ExitStatus.failure }
        let quiet = arguments.flag("quiet") || !Console.errorIsTerminal
        do {
            let plan = try ChunkPlan.load(from: URL(fileURLWithPath: planPath))
            let report = try await plan.assemble(chunks: URL(fileURLWithPath: chunks).standardizedFileURL, to: output) { fraction in
                if !quiet { Console.printErr("\rassembling: \(Int(fraction * 100))%") }
            }
            if !quiet { Console.printErr("\r\u{1B}[K") }
            print(report, shown: shown)
            return ExitStatus.success
        } catch ReelError.cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); nothing was written")
            return ExitStatus.interrupted(by: signal)
        } catch ReelError.chunksNotReady(_, let rerun, let problems) {
            Console.error("\(chunks): \(rerun.count) job\(rerun.count == 1 ? "" : "s") to run again: \(rerun.joined(separator: " "))")
            for problem in problems { Console.printErr("  \(problem)\n") }
            Console.printErr("  reel encode-chunk \(planPath) --index N -o \(chunks)   for N in \(rerun.joined(separator: " "))\n")
            return ExitStatus.failure
        } catch {
            Console.error(error.fileURL == nil ? "\(planPath): \(error.cause)" : error.description)
            return ExitStatus.failure
        }
    }

    private func print(_ report: AssemblyReport, shown: String) {
        if arguments.flag("json") {
            Console.printOut(JSONValue.object([
                ("output", .string(shown)), ("frames", JSONValue(report.frames)), ("duration", JSONValue(report.duration)),
                ("fileSize", JSONValue(report.bytes)), ("audioBytes", JSONValue(report.audioBytes)),
                ("targetFileSize", JSONValue(report.targetFileSize)), ("targetMiss", JSONValue(report.targetMiss)),
                ("overBudgetChunks", .array(report.overBudgetChunks.map { JSONValue($0) })),
                ("totalEncodeSeconds", JSONValue(report.totalEncodeSeconds)),
                ("longestJobSeconds", JSONValue(report.longestJobSeconds)),
                ("chunks", .array(report.chunks.map { chunk in
                    .object([
                        ("index", JSONValue(chunk.index)), ("frames", JSONValue(chunk.frames)), ("bytes", JSONValue(chunk.bytes)),
                        ("encodeSeconds", JSONValue(chunk.encodeSeconds)), ("host", .string(chunk.host)),
                        ("plannedBitrate", JSONValue(chunk.plannedBitrate)), ("achievedBitrate", JSONValue(chunk.achievedBitrate)),
                    ])
                })),
            ]).rendered())
            return
        }
        Console.printOut("\(shown): \(report.chunks.count) chunks joined, \(report.frames) pictures, "
            + "\(Formatting.seconds(report.duration)), \(Formatting.bytes(report.bytes))")
        Console.printOut("encode time: \(Formatting.elapsed(report.totalEncodeSeconds)) in all, "
            + "longest job \(Formatting.elapsed(report.longestJobSeconds))")
        if let target = report.targetFileSize, let miss = report.targetMiss {
            let verdict = miss > 0 ? String(format: "over by %.1f%%", miss * 100) : String(format: "%.1f%% under", -miss * 100)
            Console.printOut("target size \(Formatting.bytes(target)): \(verdict)"
                + (report.overBudgetChunks.isEmpty ? "" : "; most over their share: chunks "
                    + report.overBudgetChunks.map(String.init).joined(separator: ", ")))
        }
    }
}
