import Foundation
import ReelArguments
import ReelKit

/// `reel analyze`: key frame, shots, highlights and engagement levels of one video.
struct AnalyzeCommand: ReelCommand {
    /// The analyzer's own settings, and no saved analysis: this command makes them.
    static let analysisShape = AnalysisOptions.Shape(saved: nil, analyzerSettings: true)
    /// `--json` and `--quiet`.
    static let console = ConsoleOptions.Shape(
        json: "Print one JSON object instead of text (--format json).", quiet: "No progress on standard error.")

    /// The renderings `--format` offers.
    enum OutputFormat: String, CaseIterable {
        case text, json, csv, edl, srt
    }

    /// `--format`.
    static let format = OptionKey<OutputFormat>("format", valueName: "FORMAT", help: "What to print.")

    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "analyze",
            abstract: "Find a video's key frame, shots, highlights and engagement levels.",
            discussion: """
                Decodes the video once, cheaply, and measures subject motion (camera moves \
                undone), something in frame, faces, sound against the video's own baseline, shot \
                rhythm and picture quality. Every segment of the timeline (shots, long ones split \
                into chunks of a few seconds) gets an engagement level from 0 to 9, relative to the \
                video itself (0 its dullest tenth, 9 its top 5%; a video where nothing stands out \
                stays below 6); parts at level 6 or above are the highlights. Cuts are placed on the exact frame; fades and dissolves count as \
                shot boundaries too. With --json, prints one object with times in seconds; its \
                "levels" are the segments cut at the highlights' edges, each highlight one of them \
                with its level (the highest of the segments it spans); its "analysis" member is the whole analysis, which 'reel highlights' and 'reel \
                thumbnail' take back with --analysis FILE instead of analyzing again. \
                --format csv lists shots and highlights (seconds, timecodes, frame numbers counted \
                from 0 with the end frame the first after the range, level); edl writes the \
                highlights as a CMX3600 edit decision list (non-drop-frame timecode at the rounded \
                frame rate, laid end to end on the record side); srt writes one chapter cue per shot. \
                With --cut-silence or --cut-still (and their settings, as for 'reel compress') the \
                dead air is found too: csv adds a kept and a cut row per part, json a deadAir \
                object, and edl lists the parts kept instead of the highlights (without analyzing: \
                the cut list of a dead-air cut, for an editor).
                """,
            examples: [
                "reel analyze holiday.mov",
                "reel analyze holiday.mov --json | jq '.highlights'",
                "reel analyze match.mp4 --sample-rate 10",
                "reel analyze film.mkv --format edl > highlights.edl",
                "reel analyze lecture.mp4 --cut-silence --format edl > lecture-cut.edl",
            ],
            options: [format.spec] + AnalysisOptions.specs(analysisShape) + PauseCutOptions.specs + [ReportOption.analysis.spec]
                + ConsoleOptions.specs(console),
            positionals: [PositionalSpec(name: "INPUT", help: "The video to analyze.")])
    }

    /// The video.
    let input: InputItem
    /// What to print.
    let format: OutputFormat
    /// `--report`.
    let reportPage: String?
    let analysis: AnalysisOptions
    let console: ConsoleOptions
    /// `--cut-silence`, `--cut-still`: the dead air to find as well.
    let pauses: PauseCutOptions

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        input = InputItem(display: arguments.positional("INPUT") ?? "")
        pauses = try PauseCutOptions(arguments)
        let named: OutputFormat?
        do throws(ArgumentError) {
            named = try arguments.value(Self.format)
            analysis = try AnalysisOptions(arguments, Self.analysisShape)
            reportPage = try arguments.value(ReportOption.analysis)
            console = try ConsoleOptions(arguments, Self.console)
        } catch {
            throw CommandFailure(error)
        }
        if console.json, let named, named != .json {
            throw .usage("--json and --format \(named.rawValue) ask for different output; drop one of the two")
        }
        format = named ?? (console.json ? .json : .text)
    }

    /// Runs the analysis and prints it; returns the exit status (128 + the signal that
    /// stopped it, if `signals` caught one).
    func run(signals: SignalHandling) async -> Int32 {
        // The page is written after the analysis; whether it can be is known before. (It
        // replaces an older page: analyze has no --overwrite.)
        if let report = reportPage, !OutputOptions.mayWrite(
            URL(fileURLWithPath: report).standardizedFileURL, shown: report, for: input.url, overwrite: true) {
            return ExitStatus.failure
        }
        let showProgress = console.showsProgress
        let started = Date()
        let analysis: VideoAnalysis
        var deadAir: DeadAirReport?
        do {
            if let options = pauses.options {
                let source = try MediaInfo.probe(input.url, measuringBitRates: false)
                deadAir = try await DeadAirDetector.report(of: source, options: options)
                // The cut list alone needs no analysis.
                if format == .edl, let deadAir {
                    Console.printOut(AnalysisExport.edl(
                        highlights: deadAir.kept, frameRate: source.primaryVideo?.video?.frameRate ?? 30,
                        title: input.url.deletingPathExtension().lastPathComponent + " without dead air",
                        clipName: input.url.lastPathComponent))
                    return ExitStatus.success
                }
            }
            let asset = MediaIntelligenceVideoAsset(url: input.url)
            analysis = try await VideoAnalyzer(options: self.analysis.analyzer).analysis(of: asset) { fraction in
                if showProgress { Console.printErr("\ranalyzing \(input.display): \(Int(fraction * 100))%") }
            }
            if showProgress { Console.printErr("\r\u{1B}[K") }
        } catch .cancelled {
            if showProgress { Console.printErr("\n") }
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal))")
            return ExitStatus.interrupted(by: signal)
        } catch {
            if showProgress { Console.printErr("\n") }
            Console.error(ErrorText.line(for: error, input: input))
            return ExitStatus.failure
        }
        let elapsed = Date().timeIntervalSince(started)
        // The request's answer: its highlights are entries of its levels (the segments cut at
        // their edges), as MediaIntelligence's are.
        let answer: HighlightAnalysisRequest.Result
        do {
            answer = try HighlightAnalysisRequest().result(from: analysis)
        } catch {
            Console.error(ErrorText.line(for: error, input: input))
            return ExitStatus.failure
        }
        let highlights = answer.highlights
        if let report = reportPage {
            do {
                try await ReportWriter.write(input: input.url, title: input.display, analysis: analysis,
                                             to: URL(fileURLWithPath: report).standardizedFileURL)
            } catch {
                Console.error("\(report): the report could not be written: \(error)")
                return ExitStatus.failure
            }
        }
        let frameRate = (try? MediaInfo.probe(input.url))?.primaryVideo?.video?.frameRate ?? 30
        switch format {
        case .json:
            var json = AnalysisReport.json(analysis, highlights: answer, source: input.display, elapsed: elapsed)
            if case .object(let fields) = json, let deadAir { json = .object(fields + [("deadAir", ResultJSON.deadAir(deadAir))]) }
            Console.printOut(json.rendered())
        case .text:
            Console.printOut(AnalysisReport.text(analysis, highlights: highlights, source: input.display, elapsed: elapsed)
                + (deadAir.map { "\n  dead air    " + ResultReport.deadAirText($0) + "\n  cuts        " + ResultReport.rangeList($0.cuts) } ?? ""))
        case .csv:
            Console.printOut(AnalysisExport.csv(analysis, highlights: highlights, frameRate: frameRate, deadAir: deadAir))
        case .edl:
            Console.printOut(AnalysisExport.edl(
                highlights: highlights, frameRate: frameRate, title: input.url.deletingPathExtension().lastPathComponent,
                clipName: input.url.lastPathComponent))
        case .srt:
            Console.printOut(AnalysisExport.srt(analysis, highlights: highlights))
        }
        return ExitStatus.success
    }
}

/// Text and JSON renderings of a `VideoAnalysis`.
enum AnalysisReport {
    /// The one JSON object of `reel analyze --json`.
    static func json(_ analysis: VideoAnalysis, highlights answer: HighlightAnalysisRequest.Result, source: String,
                     elapsed: Double) -> JSONValue {
        func range(_ range: TimeRange) -> [(String, JSONValue)] {
            [("start", JSONValue(range.start.seconds)), ("end", JSONValue(range.end.seconds))]
        }
        func level(_ level: Float) -> JSONValue { JSONValue((Double(level) * 100).rounded() / 100) }
        let saved: JSONValue = SavedAnalysisFile.encoded(analysis).map { JSONValue.raw($0) } ?? .null
        let highlights: [JSONValue] = answer.highlights.map { highlight in
            .object(range(highlight) + [("level", level(answer.level(of: highlight) ?? 0))])
        }
        // The request's levels: the segments cut at the highlights' edges, each highlight one entry.
        let levels: [JSONValue] = answer.levels.map { entry in
            let isHighlight = answer.highlights.contains(entry.timeRange)
            return .object(range(entry.timeRange) + [("level", level(entry.level)), ("highlight", .bool(isHighlight))])
        }
        return .object([
            ("source", .string(source)),
            ("duration", JSONValue(analysis.duration)),
            ("keyframe", analysis.keyFrame.map { .object([("time", JSONValue($0.seconds))]) } ?? .null),
            ("highlights", .array(highlights)),
            ("levels", .array(levels)),
            ("segments", .array(analysis.segments.map {
                .object(range($0.timeRange) + [
                    ("level", level($0.level)),
                    ("raw", JSONValue(($0.rawEngagement * 1000).rounded() / 1000)),
                    ("features", featureObject($0.features)),
                ])
            })),
            ("shots", .array(analysis.shots.map { .object(range($0)) })),
            ("boundaries", .array(analysis.boundaries.map {
                .object([("time", JSONValue($0.time.seconds)), ("kind", .string($0.kind.rawValue))])
            })),
            ("analysisTime", JSONValue(elapsed)),
            ("analysis", saved),
            ("sampledFrames", JSONValue(analysis.sampledFrames)),
            ("refinedCuts", JSONValue(analysis.refinedCuts)),
            ("faces", .array(analysis.faces.filter { $0.presence.count > 0 }.map { sample in
                .object([
                    ("time", JSONValue(sample.time.seconds)), ("count", JSONValue(sample.presence.count)),
                    ("largestArea", JSONValue((sample.presence.largestArea * 1000).rounded() / 1000)),
                    ("centrality", JSONValue((sample.presence.centrality * 100).rounded() / 100)),
                ])
            })),
        ])
    }

    /// A segment's measurements, rounded to three decimals.
    static func featureObject(_ features: SegmentFeatures) -> JSONValue {
        let pairs: [(String, Double)] = [
            ("motion", features.motion), ("subjectMotion", features.subjectMotion), ("cameraMotion", features.cameraMotion),
            ("subject", features.subject), ("textShare", features.textShare),
            ("sharpness", features.sharpness), ("brightness", features.brightness), ("contrast", features.contrast),
            ("colorfulness", features.colorfulness), ("blankFraction", features.blankFraction),
            ("loudness", features.loudness), ("loudnessAboveTypical", features.loudnessAboveTypical),
            ("burst", features.burst), ("silenceShare", features.silenceShare), ("speechLikeness", features.speechLikeness), ("onsetRate", features.onsetRate),
            ("cutsPerMinute", features.cutsPerMinute), ("faceShare", features.faceShare), ("faceArea", features.faceArea),
        ]
        return .object(pairs.map { ($0.0, JSONValue(($0.1 * 1000).rounded() / 1000)) })
    }

    /// The readable summary: key frame, shots, highlights and a sparkline of the levels.
    static func text(_ analysis: VideoAnalysis, highlights: [TimeRange], source: String, elapsed: Double) -> String {
        func clock(_ time: MediaTime) -> String { Formatting.clock(time.seconds) }
        var lines = [source]
        lines.append("  duration    " + Formatting.seconds(analysis.duration))
        lines.append("  key frame   " + (analysis.keyFrame.map { "\(clock($0)) (\(Formatting.seconds($0.seconds)))" } ?? "none"))
        let cuts = analysis.boundaries.filter { $0.kind == .cut }.count
        lines.append("  shots       \(analysis.shots.count) (\(cuts) cuts, \(analysis.boundaries.count - cuts) gradual)")
        lines.append("  highlights  " + (highlights.isEmpty ? "none"
            : highlights.map { "\(clock($0.start))-\(clock($0.end))" }.joined(separator: ", ")))
        lines.append("  levels      " + sparkline(analysis, width: 60) + "  (0-9 over time)")
        let speed = elapsed > 0 ? analysis.duration / elapsed : 0
        lines.append("  time        " + Formatting.elapsed(elapsed) + " (" + Formatting.speed(speed) + " realtime)")
        return lines.joined(separator: "\n")
    }

    /// Levels over time as block characters, `width` columns for the whole duration.
    static func sparkline(_ analysis: VideoAnalysis, width: Int) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        guard let last = analysis.segments.last, !analysis.segments.isEmpty else { return "" }
        let start = analysis.segments[0].timeRange.start.seconds
        let total = max(last.timeRange.end.seconds - start, 1e-6)
        return String((0..<width).map { column in
            let time = start + total * (Double(column) + 0.5) / Double(width)
            let level = analysis.segments.first { $0.timeRange.end.seconds > time }?.level ?? 0
            return blocks[min(Int(Double(level) / 9 * Double(blocks.count - 1) + 0.5), blocks.count - 1)]
        })
    }
}
