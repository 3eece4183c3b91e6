import Foundation
import ReelArguments
import ReelKit

/// `reel encode-chunk`: one job of a chunk plan, on whichever machine runs it.
struct EncodeChunkCommand {
    /// The environment variables that give the index when `--index` is absent, in the order read.
    static let indexVariables = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]

    /// The command's declaration.
    static let spec = CommandSpec(
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
        options: [
            .value("index", valueName: "N", help: "The job: a chunk number, or audio (default from the environment)."),
            .value("output", short: "o", valueName: "DIR", help: "The directory for the chunks (created if missing)."),
            .value("source", valueName: "FILE", help: "The source's path on this machine (default the plan's)."),
            .flag("json", help: "Print the job's receipt as JSON."),
            .flag("quiet", short: "q", help: "No progress on standard error."),
        ],
        positionals: [PositionalSpec(name: "PLAN", help: "The plan written by 'reel plan'.")])

    let arguments: ParsedArguments

    /// Runs the job; returns the exit status.
    func run(compressor: VideoCompressor, signals: SignalHandling) async -> Int32 {
        let planPath = arguments.positional("PLAN") ?? ""
        guard let directoryPath = arguments.value("output") else {
            Console.error("give the directory for the chunks with -o DIR")
            return ExitStatus.usage
        }
        let environment = ProcessInfo.processInfo.environment
        guard let indexText = arguments.value("index") ?? Self.indexVariables.lazy.compactMap({ environment[$0] }).first else {
            Console.error("give the job with --index N (or set \(Self.indexVariables.joined(separator: " or ")))")
            return ExitStatus.usage
        }
        let quiet = arguments.flag("quiet") || !Console.errorIsTerminal
        do {
            let plan = try ChunkPlan.load(from: URL(fileURLWithPath: planPath))
            let job = try ChunkJob(indexText.trimmingCharacters(in: .whitespaces), in: plan)
            let label = job == .audio ? "audio" : "chunk \(job) of \(plan.chunks.count)"
            let receipt = try await plan.encodeChunk(
                job, source: arguments.value("source").map { URL(fileURLWithPath: $0) },
                into: URL(fileURLWithPath: directoryPath).standardizedFileURL, compressor: compressor
            ) { fraction in
                if !quiet { Console.printErr("\r\(label): \(Int(fraction * 100))%") }
            }
            if !quiet { Console.printErr("\r\u{1B}[K") }
            if arguments.flag("json") {
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
