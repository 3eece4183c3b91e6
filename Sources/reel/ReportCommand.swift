import Foundation
import ReelArguments
import ReelKit

/// `reel report`: one self-contained HTML page of a video's analysis.
struct ReportCommand: ReelCommand {
    /// `-o FILE` and `--overwrite`.
    static let outputShape = OutputOptions.Shape(
        valueName: "FILE", help: "The page to write (default IN-report.html).", generatedSuffix: nil,
        overwrite: "Replace an existing page.")
    /// `--quiet` only: the page's path is the one line printed.
    static let console = ConsoleOptions.Shape(json: nil, quiet: "No progress on standard error.")
    /// `--faces DIR`.
    static let faces = OptionKey<String>(
        "faces", valueName: "DIR",
        help: "A face index holding this video ('reel faces add IN --index DIR', then 'update'): its people as lanes.")

    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "report",
            abstract: "Write an HTML page of a video's analysis: timeline, key frame, shots, highlights.",
            discussion: """
                One self-contained HTML file (inline CSS and SVG, pictures as JPEG data, no \
                scripts) that opens offline: a summary, a timeline of shots, gradual transitions, \
                highlights, the engagement level, the key frame and the samples with faces, the key \
                frame large, a picture per highlight and per shot (at most 60 shots, evenly chosen), \
                and tables of shots and highlights with times, timecodes, frame numbers and levels.
                """,
            examples: [
                "reel report holiday.mov -o holiday.html",
                "reel report film.mkv -o film.html --analysis film.json",
            ],
            options: OutputOptions.specs(outputShape) + AnalysisOptions.specs(.savedAnalysis) + [faces.spec]
                + ConsoleOptions.specs(console),
            positionals: [PositionalSpec(name: "INPUT", help: "The video to report on.")])
    }

    /// The video.
    let input: InputItem
    /// `--faces`.
    let faceIndex: String?
    let output: OutputOptions
    let analysis: AnalysisOptions
    let console: ConsoleOptions

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        input = InputItem(display: arguments.positional("INPUT") ?? "")
        do throws(ArgumentError) {
            output = try OutputOptions(arguments, Self.outputShape)
            analysis = try AnalysisOptions(arguments, .savedAnalysis)
            faceIndex = try arguments.value(Self.faces)
            console = try ConsoleOptions(arguments, Self.console)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Writes the page; returns the exit status.
    func run(signals: SignalHandling) async -> Int32 {
        let shown = output.path ?? input.url.deletingPathExtension().lastPathComponent + "-report.html"
        let page = URL(fileURLWithPath: shown).standardizedFileURL
        guard output.mayWrite(page, shown: shown, for: input.url) else { return ExitStatus.failure }
        let quiet = !console.showsProgress
        do {
            let analysis = try await SavedAnalysisFile.analysis(of: input, saved: self.analysis.saved, quiet: quiet)
            if !quiet { Console.printErr("\rpictures for the report...\u{1B}[K") }
            var people: [ReportPerson] = []
            if let index = faceIndex { people = try await ReportWriter.people(of: input.url, index: index) }
            try await ReportWriter.write(input: input.url, title: input.display, analysis: analysis, to: page, people: people)
            if !quiet { Console.printErr("\r\u{1B}[K") }
        } catch ReelError.cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); no page was written")
            return ExitStatus.interrupted(by: signal)
        } catch let error as ReelError {
            Console.error(ErrorText.line(for: error, input: input, extraPaths: [(page.path, shown)]))
            return ExitStatus.failure
        } catch {
            Console.error("\(shown): \(error.localizedDescription)")
            return ExitStatus.failure
        }
        Console.printOut("\(input.display) -> \(shown)")
        return ExitStatus.success
    }
}

/// Makes the report's pictures and writes the page (under a temporary name, then renamed).
enum ReportWriter {
    /// Shots pictured at most; more are chosen evenly.
    static let maximumShotPictures = 60

    /// The people a face index (`reel faces`) found in `video`, in order of first appearance.
    static func people(of video: URL, index: String) async throws -> [ReportPerson] {
        let directory = URL(fileURLWithPath: index).standardizedFileURL
        guard FaceGroupAnalyzer.indexExists(in: directory) else {
            throw ReelError.faceIndexFailed(directory, reason: "no face index here ('reel faces add FILE --index \(index)' makes one)")
        }
        let analyzer = try FaceGroupAnalyzer(workingDirectory: directory)
        if await analyzer.state == .stale {
            throw ReelError.invalidConfiguration("the face index \(index) is not grouped yet: run 'reel faces update --index \(index)' first",
                                                 file: video)
        }
        let faces = try await analyzer.fetchFaces(for: MediaIntelligenceAssetID(video.path))
        var order: [FaceEntityID] = []
        var times: [FaceEntityID: [Double]] = [:]
        for face in faces.sorted(by: { ($0.time?.seconds ?? 0) < ($1.time?.seconds ?? 0) }) {
            guard let entity = face.entityID, let time = face.time?.seconds else { continue }
            if times[entity] == nil { order.append(entity) }
            times[entity, default: []].append(time)
        }
        return order.enumerated().map { ReportPerson(name: "person \($0.offset + 1)", times: times[$0.element] ?? []) }
    }

    static func write(input: URL, title: String, analysis: VideoAnalysis, to output: URL, people: [ReportPerson] = [],
                      compression: CompressionReport? = nil) async throws {
        let source = try MediaInfo.probe(input)
        let highlights = HighlightAnalysisRequest().highlights(in: analysis)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Every picture is asked for first and decoded in one pass (pictures of one GOP cost
        // one decode of it), then each goes where the page shows it.
        var requests: [ThumbnailRequest] = []
        var captions: [String] = []
        func ask(at time: MediaTime, width: Int, caption: String) -> Int {
            let clamped = min(max(time.seconds, 0), max(source.duration - 0.001, 0))
            requests.append(ThumbnailRequest(time: MediaTime(seconds: clamped, timescale: 1_000_000), width: width,
                                             output: scratch.appendingPathComponent("\(requests.count + 1).jpg")))
            captions.append(caption)
            return requests.count - 1
        }
        let keyFrameIndex = analysis.keyFrame.map { key in
            ask(at: key, width: 640, caption: "key frame at \(Formatting.seconds(key.seconds))")
        }
        let highlightIndices = highlights.enumerated().map { index, range in
            let caption = String(format: "highlight %d: %@-%@, level %.1f", index + 1, Formatting.clock(range.start.seconds),
                                 Formatting.clock(range.end.seconds), AnalysisExport.level(of: range, in: analysis))
            return ask(at: analysis.posterTime(in: range), width: 240, caption: caption)
        }
        let shots = analysis.shots
        let chosen = shots.count <= maximumShotPictures ? Array(shots.indices)
            : (0..<maximumShotPictures).map { $0 * shots.count / maximumShotPictures }
        let shotIndices = chosen.map { index in
            let range = shots[index]
            // Levels with one decimal (5.6 is under the highlight level 6, not "level 6"); a shot
            // is marked by the highlight it belongs to, not by its rounded level.
            let highlight = highlights.firstIndex { $0.end > range.start && $0.start < range.end }
            let caption = String(format: "shot %d: %@-%@, level %.1f", index + 1, Formatting.clock(range.start.seconds),
                                 Formatting.clock(range.end.seconds), AnalysisExport.level(of: range, in: analysis))
                + (highlight.map { ", in highlight \($0 + 1)" } ?? "")
            return ask(at: analysis.posterTime(in: range), width: 240, caption: caption)
        }
        let written = try await Thumbnailer().thumbnails(of: input, requests)
        func picture(_ index: Int) throws -> ReportPage.Picture {
            ReportPage.Picture(jpeg: try Data(contentsOf: written[index].url),
                               time: written[index].times.first?.seconds ?? requests[index].time.seconds, caption: captions[index])
        }
        let keyFrame = try keyFrameIndex.map(picture)
        let highlightPictures = try highlightIndices.map(picture)
        let shotPictures = try shotIndices.map(picture)
        let page = ReportPage(title: title, source: source, analysis: analysis, highlights: highlights, keyFrame: keyFrame,
                              shotPictures: shotPictures, highlightPictures: highlightPictures, people: people,
                              compression: compression)
        let temporary = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).partial")
        try Data(page.html().utf8).write(to: temporary)
        if FileManager.default.fileExists(atPath: output.path) { try FileManager.default.removeItem(at: output) }
        try FileManager.default.moveItem(at: temporary, to: output)
    }
}
