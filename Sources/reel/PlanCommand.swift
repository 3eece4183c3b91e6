import Foundation
import ReelArguments
import ReelKit

/// `reel plan`: cut a long video's encode into chunks that any scheduler can spread.
struct PlanCommand: ReelCommand {
    /// `-o FILE` and `--overwrite`.
    static let outputShape = OutputOptions.Shape(
        valueName: "FILE", help: "The plan to write (default IN-plan.json).", generatedSuffix: nil,
        overwrite: "Replace an existing plan.")
    /// The encoding groups beyond preset, picture and audio: a chunked encode keeps the whole
    /// video or one trim, re-encoded with frames reduced evenly, so no ranges, crossfades, copy
    /// or reducer; it can fade in and out (the first chunk and the last).
    static let encoding: ConfigOverrides.Groups = [.target, .trim, .fade]

    /// `--chunk DURATION`: seconds, with or without an `s`.
    static let chunk = OptionKey<Double>(
        "chunk", valueName: "DURATION", help: "Chunk length aimed for, e.g. 60s or 00:02:00 (default 60s).",
        parse: { text, option throws(ArgumentError) in
            try ValueParsers.duration(text.hasSuffix("s") ? String(text.dropLast()) : text, option: option).seconds
        })

    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "plan",
            abstract: "Plan a chunked encode of one video for many machines (see Docs/distributed.md).",
            discussion: """
                Analyzes the video's shots and cuts its timeline into chunks of about --chunk \
                seconds at shot boundaries (at source keyframes where shots are longer), on the \
                exact pictures a single encode would start there; with --codec av1 or vp9, whose \
                encoders put keyframes only every keyframe interval, on that grid instead, so the \
                chunks' keyframes are a single encode's. The plan (JSON) holds the \
                source's fingerprint (size, duration, SHA-256 of its first MiB), the settings \
                resolved once for every chunk (preset, options, content-aware adjustments, a \
                target size as a bit rate shared by the chunks' complexity), each chunk's range \
                and picture count, and an audio job (the last index) that encodes the sound \
                and the text subtitles once. Then run 'reel encode-chunk PLAN --index N -o DIR' for every index, \
                anywhere, in any order, and 'reel assemble PLAN --chunks DIR -o OUT'.
                """,
            examples: [
                "reel plan film.mov -o film-plan.json --preset high --chunk 60s",
                "reel plan match.mp4 -o plan.json --target-size 500M --analysis match.json",
            ],
            options: OutputOptions.specs(outputShape) + [chunk.spec] + AnalysisOptions.specs(.savedAnalysis)
                + ConfigOverrides.specs(presetNames: presetNames, encoding) + ConsoleOptions.specs(.standard),
            positionals: [PositionalSpec(name: "INPUT", help: "The video to plan.")])
    }

    /// The video.
    let input: InputItem
    /// The chunk length aimed for, in seconds.
    let chunkLength: Double
    let output: OutputOptions
    let analysis: AnalysisOptions
    let overrides: ConfigOverrides
    let console: ConsoleOptions
    /// The presets `--preset` may name.
    let catalog: PresetCatalog

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        input = InputItem(display: arguments.positional("INPUT") ?? "")
        overrides = try ConfigOverrides(arguments, Self.encoding)
        do throws(ArgumentError) {
            chunkLength = try arguments.value(Self.chunk) ?? 60
            output = try OutputOptions(arguments, Self.outputShape)
            analysis = try AnalysisOptions(arguments, .savedAnalysis)
            console = try ConsoleOptions(arguments, .standard)
        } catch {
            throw CommandFailure(error)
        }
        self.catalog = catalog
    }

    /// Writes the plan; returns the exit status.
    func run(signals: SignalHandling) async -> Int32 {
        let config: ValidatedConfig
        do throws(CommandFailure) {
            config = try overrides.config(catalog: catalog).checkedForRun()
        } catch {
            Console.error(error.message)
            return error.status
        }
        let shown = output.path ?? input.url.deletingPathExtension().lastPathComponent + "-plan.json"
        let planURL = URL(fileURLWithPath: shown).standardizedFileURL
        guard output.mayWrite(planURL, shown: shown, for: input.url) else { return ExitStatus.failure }
        let quiet = !console.showsProgress
        do {
            let plan = try await ChunkPlan.make(
                for: input.url, config: config, chunkLength: chunkLength, analysis: analysis.saved
            ) { fraction in
                if !quiet { Console.printErr("\rplanning \(input.display): \(Int(fraction * 100))%") }
            }
            if !quiet { Console.printErr("\r\u{1B}[K") }
            try plan.write(to: planURL)
            report(plan, shown: shown)
            return ExitStatus.success
        } catch ReelError.cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); no plan was written")
            return ExitStatus.interrupted(by: signal)
        } catch {
            Console.error(ErrorText.line(for: error, input: input, extraPaths: [(planURL.path, shown)]))
            return ExitStatus.failure
        }
    }

    private func report(_ plan: ChunkPlan, shown: String) {
        if console.json {
            Console.printOut(JSONValue.object([
                ("plan", .string(shown)), ("id", .string(plan.id)), ("jobs", JSONValue(plan.jobCount)),
                ("audioIndex", JSONValue(plan.audioIndex)), ("frames", JSONValue(plan.frameCount)),
                ("chunks", .array(plan.chunks.map { chunk in
                    .object([
                        ("index", JSONValue(chunk.index)), ("start", JSONValue(chunk.start.seconds)),
                        ("end", JSONValue(chunk.end.seconds)), ("frames", JSONValue(chunk.frames)),
                        ("startsAtShot", .bool(chunk.startsAtShot)), ("videoBitrate", JSONValue(chunk.videoBitrate)),
                    ])
                })),
            ]).rendered())
            return
        }
        let atShots = plan.chunks.dropFirst().filter(\.startsAtShot).count
        let config = plan.settings.config
        let cuts = config.videoCodec.placesKeyframesAtShots
            ? "\(atShots) of \(plan.chunks.count - 1) cuts at shots"
            : "cut on \(config.videoCodec.rawValue)'s keyframe grid, every \(config.maxKeyFrameInterval) pictures"
        Console.printOut("\(shown): \(plan.chunks.count) chunks (\(cuts))"
            + (plan.audioIndex.map { " + audio job \($0)" } ?? "") + ", \(plan.frameCount) pictures")
        for chunk in plan.chunks {
            Console.printOut(String(format: "  %3d  %@-%@  %6d pictures%@", chunk.index,
                                    Formatting.clock(chunk.start.seconds), Formatting.clock(chunk.end.seconds), chunk.frames,
                                    chunk.startsAtShot && chunk.index > 0 ? "  (shot)" : ""))
        }
        Console.printOut("jobs 0...\(plan.jobCount - 1): reel encode-chunk \(shown) --index N -o DIR; "
            + "then reel assemble \(shown) --chunks DIR -o OUT")
    }
}
