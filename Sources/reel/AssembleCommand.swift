import Foundation
import ReelArguments
import ReelKit

/// `reel assemble`: join the chunks of a plan into one file.
struct AssembleCommand: ReelCommand {
    /// `-o FILE` and `--overwrite`.
    static let outputShape = OutputOptions.Shape(
        valueName: "FILE", help: "The joined video to write.", generatedSuffix: nil, overwrite: "Replace an existing output.")
    /// `--chunks DIR`.
    static let chunks = OptionKey<String>("chunks", valueName: "DIR", help: "The directory 'reel encode-chunk' wrote to.")

    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
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
            options: [chunks.spec] + OutputOptions.specs(outputShape) + ConsoleOptions.specs(.standard),
            positionals: [PositionalSpec(name: "PLAN", help: "The plan written by 'reel plan'.")])
    }

    /// The plan's path as typed.
    let planPath: String
    /// `--chunks`, as typed.
    let chunks: String
    /// `-o`, as typed.
    let shown: String
    let output: OutputOptions
    let console: ConsoleOptions

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        planPath = arguments.positional("PLAN") ?? ""
        let chunks: String?
        do throws(ArgumentError) {
            chunks = try arguments.value(Self.chunks)
            output = try OutputOptions(arguments, Self.outputShape)
            console = try ConsoleOptions(arguments, .standard)
        } catch {
            throw CommandFailure(error)
        }
        guard let chunks, let shown = output.path else {
            throw .usage("give the chunks' directory with --chunks DIR and the output with -o FILE")
        }
        self.chunks = chunks
        self.shown = shown
    }

    /// Joins the chunks; returns the exit status.
    func run(signals: SignalHandling) async -> Int32 {
        let outputURL = URL(fileURLWithPath: shown).standardizedFileURL
        guard output.mayWrite(outputURL, shown: shown, for: URL(fileURLWithPath: planPath)) else { return ExitStatus.failure }
        let quiet = !console.showsProgress
        do {
            let plan = try ChunkPlan.load(from: URL(fileURLWithPath: planPath))
            let report = try await plan.assemble(chunks: URL(fileURLWithPath: chunks).standardizedFileURL, to: outputURL) { fraction in
                if !quiet { Console.printErr("\rassembling: \(Int(fraction * 100))%") }
            }
            if !quiet { Console.printErr("\r\u{1B}[K") }
            print(report)
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

    private func print(_ report: AssemblyReport) {
        if console.json {
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
