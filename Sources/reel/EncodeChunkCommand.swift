import Foundation
import ReelArguments
import ReelKit

/// `reel encode-chunk`: one job of a chunk plan, on whichever machine runs it.
struct EncodeChunkCommand: ReelCommand {
    /// The environment variables that give the index when `--index` is absent, in the order read.
    static let indexVariables = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]

    /// `-o DIR`; a job's output is never refused: a retried job writes it again.
    static let outputShape = OutputOptions.Shape(
        valueName: "DIR", help: "The directory for the chunks (created if missing).", generatedSuffix: nil, overwrite: nil)
    /// `--json` and `--quiet`.
    static let console = ConsoleOptions.Shape(json: "Print the job's receipt as JSON.", quiet: "No progress on standard error.")

    /// The keys of the command's own options.
    enum Keys {
        static let index = OptionKey<String>(
            "index", valueName: "N", help: "The job: a chunk number, or audio (default from the environment).")
        static let source = OptionKey<String>(
            "source", valueName: "FILE", help: "The source's path on this machine (default the plan's).")
    }

    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "encode-chunk",
            abstract: "Encode one chunk (or the audio) of a plan made by 'reel plan'.",
            discussion: """
                Encodes job N of the plan into DIR: a video chunk as chunk-NNNN.mp4 (its own \
                encode, starting with an IDR picture, at the plan's settings) or, for the audio \
                job (--index audio, or the plan's last index), the whole sound and text subtitles as audio.m4a. The \
                output is written under a temporary name and renamed, then a receipt \
                (chunk-NNNN.json) naming the plan: a retried or duplicated task is harmless. \
                Without --index the index is read from $JOB_COMPLETION_INDEX (a Kubernetes \
                Indexed Job) or $SLURM_ARRAY_TASK_ID (a Slurm array). The source is the plan's \
                path unless --source gives another; it must be the same file (size, duration and \
                first MiB are checked).
                """,
            examples: [
                "reel encode-chunk film-plan.json --index 3 -o chunks/",
                "reel encode-chunk film-plan.json --index audio -o chunks/",
                "JOB_COMPLETION_INDEX=3 reel encode-chunk /data/plan.json -o /data/chunks --source /data/film.mov",
            ],
            options: [Keys.index.spec] + OutputOptions.specs(outputShape) + [Keys.source.spec] + ConsoleOptions.specs(console),
            positionals: [PositionalSpec(name: "PLAN", help: "The plan written by 'reel plan'.")])
    }

    /// The plan's path as typed.
    let planPath: String
    /// The job, as typed or taken from the environment.
    let indexText: String
    /// The directory, as typed.
    let directoryPath: String
    /// `--source`.
    let source: String?
    let console: ConsoleOptions
    /// The compressor that encodes the job.
    let compressor = VideoCompressor()

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        planPath = arguments.positional("PLAN") ?? ""
        let output: OutputOptions, index: String?
        do throws(ArgumentError) {
            index = try arguments.value(Keys.index)
            output = try OutputOptions(arguments, Self.outputShape)
            source = try arguments.value(Keys.source)
            console = try ConsoleOptions(arguments, Self.console)
        } catch {
            throw CommandFailure(error)
        }
        guard let directoryPath = output.path else { throw .usage("give the directory for the chunks with -o DIR") }
        let environment = ProcessInfo.processInfo.environment
        guard let indexText = index ?? Self.indexVariables.lazy.compactMap({ environment[$0] }).first else {
            throw .usage("give the job with --index N (or set \(Self.indexVariables.joined(separator: " or ")))")
        }
        self.directoryPath = directoryPath
        self.indexText = indexText
    }

    func cancel() {
        compressor.cancel()
    }

    /// Runs the job; returns the exit status.
    func run(signals: SignalHandling) async -> Int32 {
        let quiet = !console.showsProgress
        do {
            let plan = try ChunkPlan.load(from: URL(fileURLWithPath: planPath))
            let job = try ChunkJob(indexText.trimmingCharacters(in: .whitespaces), in: plan)
            let label = job == .audio ? "audio" : "chunk \(job) of \(plan.chunks.count)"
            let receipt = try await plan.encodeChunk(
                job, source: source.map { URL(fileURLWithPath: $0) },
                into: URL(fileURLWithPath: directoryPath).standardizedFileURL, compressor: compressor
            ) { fraction in
                if !quiet { Console.printErr("\r\(label): \(Int(fraction * 100))%") }
            }
            if !quiet { Console.printErr("\r\u{1B}[K") }
            if console.json {
                Console.printOut(JSONValue.object([
                    ("planID", .string(receipt.planID)), ("job", .string(receipt.job)), ("file", .string(receipt.file)),
                    ("frames", JSONValue(receipt.frames)), ("bytes", JSONValue(receipt.bytes)),
                    ("encodeSeconds", JSONValue(receipt.encodeSeconds)), ("host", .string(receipt.host)),
                ]).rendered())
            } else {
                Console.printOut("\(label) -> \((directoryPath as NSString).appendingPathComponent(receipt.file)) "
                    + "(\(Formatting.bytes(receipt.bytes))\(receipt.frames > 0 ? ", \(receipt.frames) pictures" : ""), "
                    + "\(Formatting.elapsed(receipt.encodeSeconds)))")
            }
            return ExitStatus.success
        } catch ReelError.cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); the job left no output")
            return ExitStatus.interrupted(by: signal)
        } catch {
            Console.error(error.fileURL == nil ? "\(planPath): \(error.cause)" : error.description)
            return ExitStatus.failure
        }
    }
}
