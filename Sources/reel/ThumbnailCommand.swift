import Foundation
import ReelArguments
import ReelKit

/// `reel thumbnail`: the key frame (or a given time) as an image, or a contact sheet.
struct ThumbnailCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "thumbnail",
        abstract: "Write a thumbnail (the key frame by default) or a contact sheet as JPEG or PNG.",
        discussion: """
            Without --at, the frame is the analyzer's key frame: the sharpest, best exposed frame \
            of the video's dominant look, never a black or transition frame. The picture is \
            turned upright when the video carries a rotation. --sheet N tiles N frames, evenly \
            spaced or one per highlight (--from highlights). The format follows the output's \
            extension (.jpg, .jpeg, .png). Output: IN-thumbnail.jpg or IN-sheet.jpg next to the \
            input unless -o is given; an existing file is kept unless --overwrite.
            """,
        examples: [
            "reel thumbnail holiday.mov",
            "reel thumbnail holiday.mov --at 12.5 --width 640 -o cover.png",
            "reel thumbnail match.mp4 --sheet 12 --from highlights -o sheet.jpg",
        ],
        options: [
            .value("output", short: "o", valueName: "FILE", help: "The image to write (.jpg, .jpeg or .png)."),
            .value("at", valueName: "TIME", help: "auto (the key frame, default) or a time, e.g. 12.5 or 00:01:02."),
            .value("width", valueName: "PIXELS", help: "Image width (tile width for a sheet, default 320)."),
            .value("sheet", valueName: "N", help: "Write a contact sheet of N frames instead."),
            .value("from", valueName: "KIND", help: "Frames of the sheet: even (default) or highlights.",
                   allowedValues: ["even", "highlights"]),
            .value("columns", valueName: "N", help: "Columns of the sheet (about square by default)."),
            .flag("every-shot", help: "Write one image per shot (its best picture) into the directory -o names."),
            .value("analysis", valueName: "FILE",
                   help: "Use this saved analysis ('reel analyze IN --json > FILE') instead of analyzing again."),
            .flag("overwrite", help: "Replace an existing output."),
            .flag("json", help: "Print one JSON object instead of text."),
        ],
        positionals: [PositionalSpec(name: "INPUT", help: "The video.")])

    /// The parsed arguments.
    let arguments: ParsedArguments

    /// Writes the image and reports it; returns the exit status (128 + the signal that
    /// stopped it, if `signals` caught one).
    func run(signals: SignalHandling) async -> Int32 {
        let input = InputItem(display: arguments.positional("INPUT") ?? "")
        let sheet: Int?, width: Int?, columns: Int?, time: ParsedTime?, saved: VideoAnalysis?
        do throws(ArgumentError) {
            saved = try arguments.value("analysis").map(SavedAnalysisFile.load)
            sheet = try arguments.value("sheet", as: ValueParsers.positiveInteger)
            width = try arguments.value("width", as: ValueParsers.positiveInteger)
            columns = try arguments.value("columns", as: ValueParsers.positiveInteger)
            let at = arguments.value("at")
            time = at == nil || at == "auto" ? nil : try arguments.value("at", as: ValueParsers.time)
        } catch {
            Console.error(error.description)
            return ExitStatus.usage
        }
        if sheet != nil && time != nil {
            Console.error("give either --sheet or --at, not both")
            return ExitStatus.usage
        }
        if arguments.flag("every-shot") {
            guard sheet == nil && time == nil, let directory = arguments.value("output") else {
                Console.error("--every-shot takes a directory (-o DIR) and neither --sheet nor --at")
                return ExitStatus.usage
            }
            return await writeEveryShot(input: input, directory: directory, width: width, analysis: saved, signals: signals)
        }
        let defaultName = input.url.deletingPathExtension().lastPathComponent + (sheet == nil ? "-thumbnail.jpg" : "-sheet.jpg")
        let outputPath = arguments.value("output")
            ?? input.url.deletingLastPathComponent().appendingPathComponent(defaultName).path
        let output = URL(fileURLWithPath: outputPath).standardizedFileURL
        let shown = arguments.value("output") ?? (input.display as NSString).deletingLastPathComponent
            .appending((input.display as NSString).deletingLastPathComponent.isEmpty ? "" : "/") + defaultName
        guard arguments.mayWrite(output, shown: shown) else { return ExitStatus.failure }
        let showProgress = Console.errorIsTerminal
        let progress: @Sendable (Double) -> Void = { fraction in
            if showProgress { Console.printErr("\rthumbnail \(input.display): \(Int(fraction * 100))%") }
        }
        let result: ThumbnailResult
        defer { if showProgress { Console.printErr("\r\u{1B}[K") } }
        do {
            if let sheet {
                let selection: ContactSheetSelection = arguments.value("from") == "highlights" ? .highlights : .evenlySpaced
                result = try await Thumbnailer().contactSheet(
                    of: input.url, frames: sheet, selection: selection, columns: columns, tileWidth: width ?? 320, to: output,
                    analysis: saved, progressHandler: progress)
            } else {
                result = try await Thumbnailer().thumbnail(
                    of: input.url, at: time.map { MediaTime(value: $0.value, timescale: $0.timescale) }, width: width, to: output,
                    analysis: saved, progressHandler: progress)
            }
        } catch .cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); no image was written")
            return ExitStatus.interrupted(by: signal)
        } catch {
            Console.error(ErrorText.line(for: error, input: input, extraPaths: [(output.path, shown)]))
            return ExitStatus.failure
        }
        if arguments.flag("json") {
            Console.printOut(JSONValue.object([
                ("source", .string(input.display)),
                ("output", .string(shown)),
                ("times", .array(result.times.map { JSONValue($0.seconds) })),
                ("width", JSONValue(result.width)),
                ("height", JSONValue(result.height)),
                ("damagedPictures", JSONValue(result.damagedPictures)),
            ]).rendered())
        } else {
            let times = result.times.map { Formatting.seconds($0.seconds) }.joined(separator: ", ")
            Console.printOut("\(input.display) -> \(shown) (\(result.width)x\(result.height), at \(times))")
        }
        if result.damagedPictures > 0 {
            Console.warning("\(shown): \(result.damagedPictures) of its pictures are damaged in "
                + "\(input.display) itself (the decoder could only conceal them, even from the file's start)")
        }
        return ExitStatus.success
    }

    /// `--every-shot`: one image per shot into `directory`.
    private func writeEveryShot(input: InputItem, directory: String, width: Int?, analysis: VideoAnalysis?,
                                signals: SignalHandling) async -> Int32 {
        let showProgress = Console.errorIsTerminal
        let results: [ThumbnailResult]
        do {
            results = try await Thumbnailer().shotThumbnails(
                of: input.url, width: width, into: URL(fileURLWithPath: directory).standardizedFileURL,
                overwriting: arguments.flag("overwrite"), analysis: analysis) { fraction in
                if showProgress { Console.printErr("\rthumbnails \(input.display): \(Int(fraction * 100))%") }
            }
            if showProgress { Console.printErr("\r\u{1B}[K") }
        } catch .cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal))")
            return ExitStatus.interrupted(by: signal)
        } catch {
            Console.error(ErrorText.line(for: error, input: input))
            return ExitStatus.failure
        }
        let shown = { (url: URL) in (directory as NSString).appendingPathComponent(url.lastPathComponent) }
        if arguments.flag("json") {
            Console.printOut(JSONValue.object([
                ("source", .string(input.display)),
                ("images", .array(results.map { result in
                    .object([("output", .string(shown(result.url))), ("time", JSONValue(result.times.first?.seconds))])
                })),
            ]).rendered())
        } else {
            for result in results {
                Console.printOut("\(input.display) -> \(shown(result.url)) (at \(Formatting.seconds(result.times.first?.seconds ?? 0)))")
            }
        }
        return ExitStatus.success
    }
}
