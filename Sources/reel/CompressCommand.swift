import Foundation
import ReelArguments
import ReelKit

/// `reel compress`: resolves settings, inputs and outputs, runs the batch, prints the result.
struct CompressCommand: ReelCommand {
    /// The options, read before any work.
    let options: CompressOptions
    /// The presets `--preset` may name.
    let catalog: PresetCatalog
    /// The compressor every file of the batch shares, so one `cancel()` stops them all.
    let compressor = VideoCompressor()

    static func spec(presetNames: [String]) -> CommandSpec {
        CompressHelp.spec(presetNames: presetNames)
    }

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        try self.init(arguments, catalog: catalog, kind: .compress)
    }

    /// Reads the options of `compress` or, with `kind` `.highlights`, of `highlights`.
    init(_ arguments: ParsedArguments, catalog: PresetCatalog, kind: CompressOptions.Kind) throws(CommandFailure) {
        options = try CompressOptions(arguments, kind)
        self.catalog = catalog
    }

    func cancel() {
        compressor.cancel()
    }

    /// Runs the command and returns the exit status; `signals` tells whether it was stopped.
    func run(signals: SignalHandling) async -> Int32 {
        do {
            return try await execute(signals: signals)
        } catch {
            Console.error(error.message)
            return error.status
        }
    }

    private func execute(signals: SignalHandling) async throws(CommandFailure) -> Int32 {
        var config = try options.overrides.config(catalog: catalog)
        if let reelOptions = options.reel {
            var reel = reelOptions.reelOptions(analysis: options.analysis.saved)
            reel.crossfadeDuration = config.crossfadeDuration
            if options.overrides.audio.keepsLoudness { reel.loudness = nil }
            config.trim = .highlights(reel)
        }
        let presetType = config.fileType
        config.fileType = try options.fileType(presetDefault: config.fileType)
        if config.fileType != presetType { options.overrides.applyFormatDefaults(to: &config) }
        if config.fileType == .webp, let page = options.reportPage {
            throw CommandFailure(ArgumentError.invalidValue(
                option: "--report", value: page, reason: "the report shows the output's pictures, and FFmpeg 5.1 cannot decode "
                    + "an animated WebP; use --format gif or mp4 for a report"))
        }
        let checked = try config.checkedForRun()
        let all = try InputCollection.collect(options.inputs)
        // The report page is an output too: checked before any analysis or encode.
        let reportPage = try reportPageURL(for: all.first)
        let planner = OutputPlanner(
            outputFile: options.output.path, outputDirectory: options.output.directory,
            fileType: config.fileType, overwrite: options.output.overwrite, isBatch: options.isBatch,
            suffix: options.output.generatedSuffix ?? "-compressed", dryRun: options.batch.dryRun,
            expectedDuration: { [config] input in Self.expectedDuration(of: input, config: config) })
        let candidates = options.isBatch ? planner.excludingOutputs(all) : all
        if candidates.isEmpty {
            let names = options.inputs.joined(separator: ", ")
            throw .failure("\(names): no video files found (looked for "
                + InputCollection.videoExtensions.sorted().map { "." + $0 }.joined(separator: " ")
                + ")")
        }
        let selected = options.batch.shard.map { InputCollection.slice(candidates, shard: $0) }
            ?? candidates
        let plan = planner.plan(selected, among: candidates)
        let started = Date()
        let outcomes: [FileOutcome]
        if options.batch.dryRun {
            outcomes = await Self.dryRun(plan, config: checked, reducer: options.overrides.frameReducer, compressor: compressor)
            for outcome in outcomes where outcome.status == .failed {
                Console.error(outcome.message ?? "")
            }
        } else {
            let toCompress = plan.filter { $0.action == .compress }.count
            let display = ProgressDisplay(
                style: ProgressDisplay.automaticStyle(quiet: options.console.quiet),
                total: toCompress, isBatch: options.isBatch)
            let runner = BatchRunner(
                compressor: compressor, config: checked, reducer: options.overrides.frameReducer, jobs: options.batch.jobs,
                display: display)
            outcomes = await runner.run(plan)
            display.close()
        }
        report(outcomes, options: options, elapsed: Date().timeIntervalSince(started))
        if let reportPage, let page = options.reportPage, let outcome = outcomes.first, outcome.status == .compressed,
           let analytics = outcome.analytics {
            try await writeReport(of: outcome, analytics: analytics, to: reportPage, shown: page)
        }
        if let signal = signals.receivedSignal {
            Console.error("interrupted by \(SignalHandling.name(of: signal)); "
                + "unfinished outputs were removed")
            return ExitStatus.interrupted(by: signal)
        }
        let failed = outcomes.contains { $0.status == .failed }
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    /// `--report`'s page, checked writable for `input` (one input; none in a dry run, which
    /// writes nothing), with the saved analysis it will show checked against `input`; nil
    /// without `--report`.
    private func reportPageURL(for input: InputItem?) throws(CommandFailure) -> URL? {
        guard let page = options.reportPage, let input, !options.batch.dryRun else { return nil }
        let url = URL(fileURLWithPath: page).standardizedFileURL
        if let problem = OutputOptions.writeProblem(url, shown: page, for: input.url, overwrite: options.output.overwrite) {
            throw .failure(problem)
        }
        // A saved analysis for the page (a reel's plan checks its own) must be of this video.
        if options.reel == nil, let saved = options.analysis.saved {
            do throws(ReelError) {
                try saved.requireSource(try MediaInfo.probe(input.url, measuringBitRates: false))
            } catch {
                throw .failure(ErrorText.line(for: error, input: input))
            }
        }
        return url
    }

    /// Writes the report page of a compressed file: its source's analysis (the one the reel was
    /// cut from, else `--analysis`, else made now) and the compression's section.
    private func writeReport(of outcome: FileOutcome, analytics: CompressionAnalytics, to url: URL, shown: String)
        async throws(CommandFailure) {
        let input = outcome.file.input
        do {
            // The reel's own analysis, or --analysis (checked against the input before the
            // encode), or one made now.
            let analysis: VideoAnalysis
            if let used = outcome.analysis ?? options.analysis.saved {
                analysis = used
            } else {
                analysis = try await SavedAnalysisFile.analysis(
                    of: input, saved: nil, quiet: options.console.quiet || !Console.errorIsTerminal, purpose: " for the report")
            }
            let section = try await CompressionReport.measure(output: outcome.file.output, analytics: analytics)
            try await ReportWriter.write(input: input.url, title: input.display, analysis: analysis, to: url, compression: section)
        } catch let error as ReelError {
            throw .failure(ErrorText.line(for: error, input: input, extraPaths: [(url.path, shown)]))
        } catch {
            throw .failure("\(shown): the report could not be written: \(error.localizedDescription)")
        }
    }

    /// Says what a target size cost: a smaller picture or frame rate, or that the preset's own
    /// (smaller) result was kept.
    private func warnAbout(_ target: TargetSizeReport, output: String) {
        let size = Formatting.bytes(target.targetBytes)
        if target.keptPresetResult {
            Console.warning("\(output): the preset's result (\(Formatting.bytes(target.achievedBytes))) is already under "
                + "the target of \(size); kept as it is rather than inflated")
        }
        var lowered: [String] = []
        if let dimensions = target.loweredDimensions { lowered.append("the picture to \(dimensions.width)x\(dimensions.height)") }
        if let rate = target.loweredFrameRate { lowered.append(String(format: "the frame rate to %.3g fps", rate)) }
        if !lowered.isEmpty {
            Console.warning("\(output): to fit \(size) at a watchable quality, lowered " + lowered.joined(separator: " and "))
        }
    }

    /// Prints the JSON object, the single-file summary or the batch table on standard output.
    private func report(_ outcomes: [FileOutcome], options: CompressOptions, elapsed: Double) {
        if !options.console.quiet {
            for outcome in outcomes where outcome.status == .compressed {
                guard let result = outcome.analytics else { continue }
                if result.damagedFrames > 0 || result.corruptPacketsSkipped > 0 {
                    Console.warning("\(outcome.file.input.display) is damaged: \(result.corruptPacketsSkipped) corrupt "
                        + "packets skipped, \(result.damagedFrames) damaged pictures concealed in \(outcome.file.outputDisplay)")
                }
                if let end = result.sourceCutShortAt {
                    Console.warning("\(outcome.file.input.display) is cut short: its data ends at "
                        + String(format: "%.2f s of the %.2f s", end, result.originalDuration)
                        + " its header gives (an interrupted download or copy?); \(outcome.file.outputDisplay) holds what is there")
                }
                if let widened = ResultReport.copyWidened(result) {
                    Console.warning("\(outcome.file.outputDisplay) holds "
                        + String(format: "%.1f s for the %.1f s asked", widened.kept, widened.asked)
                        + ": a lossless copy cuts only at the source's keyframes; compress without --copy to cut exactly")
                }
                if result.mistimedFramesDropped > 0 {
                    Console.warning("\(outcome.file.input.display): \(result.mistimedFramesDropped) pictures timed before the "
                        + "picture shown before them were dropped (its timestamps go back, as where files were joined)")
                }
                if let target = result.targetSize { warnAbout(target, output: outcome.file.outputDisplay) }
                // A GIF is larger than its source as a rule; the advice below is for video.
                let animated = OutputFileType(rawValue: outcome.file.output.pathExtension.lowercased())?.isAnimatedImage == true
                if result.originalFileSize > 0, result.compressedFileSize > result.originalFileSize, !animated {
                    let factor = Double(result.compressedFileSize) / Double(result.originalFileSize)
                    Console.warning("\(outcome.file.outputDisplay) is \(Formatting.growth(factor)) than "
                        + "\(outcome.file.input.display): the source was already compressed harder than these settings; "
                        + "keep the original, or try --preset low or a lower --quality")
                }
            }
        }
        if options.console.json {
            if !options.isBatch, let outcome = outcomes.first {
                Console.printOut(ResultJSON.file(outcome).rendered())
            } else {
                Console.printOut(ResultJSON.batch(outcomes, processingTime: elapsed).rendered())
            }
            return
        }
        if options.console.quiet { return }
        if options.isBatch {
            if !outcomes.isEmpty {
                Console.printOut(ResultReport.table(outcomes, processingTime: elapsed))
            } else {
                Console.printOut("nothing to do: shard \(options.batch.shardText) holds no files")
            }
        } else if let outcome = outcomes.first, let text = ResultReport.single(outcome) {
            Console.printOut(text)
        }
    }

    /// How long `input`'s output lasts with `config`, when that is known before compressing:
    /// not for reels (the analysis decides) nor with crossfades (each join shortens it).
    private static func expectedDuration(of input: URL, config: CompressionConfig) -> Double? {
        if case .planned = config.trim { return nil }
        guard config.crossfadeDuration == 0, let source = try? MediaInfo.probe(input) else { return nil }
        guard let kept = config.keptDuration(of: source) else { return nil }
        // The container may last longer than the video (a longer audio track).
        return min(kept, source.primaryVideo?.duration ?? kept)
    }

    /// A dry run: each file the run would compress planned by the library (probed, a reel
    /// analyzed, its ranges fixed, its output checked), nothing written; or failed with the
    /// reason the run would fail.
    private static func dryRun(
        _ files: [PlannedFile], config: ValidatedConfig, reducer: any VideoFrameReducer, compressor: VideoCompressor
    ) async -> [FileOutcome] {
        var result: [FileOutcome] = []
        for file in files {
            guard var outcome = FileOutcome.preliminary(file, dryRun: true) else { continue }
            guard outcome.status == .planned else {
                result.append(outcome)
                continue
            }
            do throws(ReelError) {
                let source = try await compressor.probe(file.input.url)
                let plan = try await compressor.plan(source, config: config.writing(to: file.output), frameReducer: reducer)
                outcome.plannedRanges = plan.keptRanges
                outcome.plannedDissolves = (plan.dissolvingJoins, plan.config.crossfadeDuration)
                outcome.plannedCameraPath = plan.cameraPath
                outcome.deadAir = plan.deadAir
                result.append(outcome)
            } catch {
                result.append(FileOutcome(file: file, status: .failed, analytics: nil, message: ErrorText.line(for: error, file: file)))
            }
        }
        return result
    }
}
