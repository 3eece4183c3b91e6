import Foundation
import ReelArguments
import ReelKit

/// Which frame a thumbnail shows: the key frame, or the one on screen at a time.
enum ThumbnailFrame: Sendable, Equatable {
    /// The analyzer's key frame.
    case keyFrame
    /// The frame on screen at this time.
    case at(ParsedTime)

    /// Parses `auto` or a time such as `12.5` or `00:01:02`.
    static func parse(_ text: String, option: String) throws(ArgumentError) -> ThumbnailFrame {
        text == "auto" ? .keyFrame : .at(try ValueParsers.time(text, option: option))
    }
}

/// `reel thumbnail`: the key frame (or a given time) as an image, or a contact sheet.
struct ThumbnailCommand: ReelCommand {
    /// `-o FILE` (a directory with `--every-shot`) and `--overwrite`.
    static let outputShape = OutputOptions.Shape(
        valueName: "FILE", help: "The image to write (.jpg, .jpeg or .png).", generatedSuffix: nil,
        overwrite: "Replace an existing output.")

    /// The keys of the command's own options.
    enum Keys {
        static let at = OptionKey<ThumbnailFrame>(
            "at", valueName: "TIME", help: "auto (the key frame, default) or a time, e.g. 12.5 or 00:01:02.",
            parse: ThumbnailFrame.parse)
        static let width = OptionKey<Int>(
            "width", valueName: "PIXELS", help: "Image width (tile width for a sheet, default 320).",
            parse: ValueParsers.positiveInteger)
        static let sheet = OptionKey<Int>(
            "sheet", valueName: "N", help: "Write a contact sheet of N frames instead.", parse: ValueParsers.positiveInteger)
        static let from = OptionKey<SheetFrames>(
            "from", valueName: "KIND", help: "Frames of the sheet: even (default) or highlights.")
        static let columns = OptionKey<Int>(
            "columns", valueName: "N", help: "Columns of the sheet (about square by default).", parse: ValueParsers.positiveInteger)
        static let stream = OptionKey<Int>(
            "stream", valueName: "N",
            help: "Picture of video stream N as reel probe lists it (e.g. a Cinematic video's disparity track).",
            parse: ValueParsers.streamNumber)
        static let everyShot = FlagKey(
            "every-shot", help: "Write one image per shot (its best picture) into the directory -o names.")
    }

    /// The `--from` choices: which frames a contact sheet tiles.
    enum SheetFrames: String, CaseIterable {
        case even, highlights
    }

    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "thumbnail",
            abstract: "Write a thumbnail (the key frame by default) or a contact sheet as JPEG or PNG.",
            discussion: """
                Without --at, the frame is the analyzer's key frame: the sharpest, best exposed frame \
                of the video's dominant look, never a black or transition frame. The picture is \
                turned upright when the video carries a rotation. --sheet N tiles N frames, evenly \
                spaced or one per highlight (--from highlights). The format follows the output's \
                extension (.jpg, .jpeg, .png). --stream N takes the picture from another video \
                stream at the same time, such as the disparity (depth) track of an iPhone Cinematic \
                video: a map coded in brightness alone comes out grey. Output: IN-thumbnail.jpg or IN-sheet.jpg next to the \
                input unless -o is given; an existing file is kept unless --overwrite.
                """,
            examples: [
                "reel thumbnail holiday.mov",
                "reel thumbnail holiday.mov --at 12.5 --width 640 -o cover.png",
                "reel thumbnail match.mp4 --sheet 12 --from highlights -o sheet.jpg",
                "reel thumbnail cinematic.mov --at 2 --stream 2 -o disparity.png",
            ],
            options: OutputOptions.specs(outputShape)
                + [Keys.at.spec, Keys.width.spec, Keys.sheet.spec, Keys.from.spec, Keys.columns.spec, Keys.stream.spec, Keys.everyShot.spec]
                + AnalysisOptions.specs(.savedAnalysis) + ConsoleOptions.specs(.standard),
            positionals: [PositionalSpec(name: "INPUT", help: "The video.")])
    }

    /// The video.
    let input: InputItem
    /// `--sheet`.
    let sheet: Int?
    /// `--width`.
    let width: Int?
    /// `--columns`.
    let columns: Int?
    /// `--at` (nil: the key frame).
    let time: ParsedTime?
    /// `--from highlights`.
    let sheetOfHighlights: Bool
    /// `--every-shot`.
    let everyShot: Bool
    /// `--stream` (nil: the primary video).
    let stream: Int?
    let output: OutputOptions
    let analysis: AnalysisOptions
    let console: ConsoleOptions

    init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CommandFailure) {
        input = InputItem(display: arguments.positional("INPUT") ?? "")
        let frame: ThumbnailFrame?
        do throws(ArgumentError) {
            output = try OutputOptions(arguments, Self.outputShape)
            frame = try arguments.value(Keys.at)
            width = try arguments.value(Keys.width)
            sheet = try arguments.value(Keys.sheet)
            sheetOfHighlights = try arguments.value(Keys.from) == .highlights
            columns = try arguments.value(Keys.columns)
            everyShot = try arguments.isSet(Keys.everyShot)
            stream = try arguments.value(Keys.stream)
            analysis = try AnalysisOptions(arguments, .savedAnalysis)
            console = try ConsoleOptions(arguments, .standard)
        } catch {
            throw CommandFailure(error)
        }
        if case .at(let time) = frame { self.time = time } else { time = nil }
        if sheet != nil && time != nil {
            throw .usage("give either --sheet or --at, not both")
        }
        if everyShot, sheet != nil || time != nil || stream != nil || output.path == nil {
            throw .usage("--every-shot takes a directory (-o DIR) and none of --sheet, --at and --stream")
        }
    }

    /// Writes the image and reports it; returns the exit status (128 + the signal that
    /// stopped it, if `signals` caught one).
    func run(signals: SignalHandling) async -> Int32 {
        if everyShot, let directory = output.path {
            return await writeEveryShot(directory: directory, signals: signals)
        }
        let defaultName = input.url.deletingPathExtension().lastPathComponent + (sheet == nil ? "-thumbnail.jpg" : "-sheet.jpg")
        let outputPath = output.path
            ?? input.url.deletingLastPathComponent().appendingPathComponent(defaultName).path
        let image = URL(fileURLWithPath: outputPath).standardizedFileURL
        let shown = output.path ?? (input.display as NSString).deletingLastPathComponent
            .appending((input.display as NSString).deletingLastPathComponent.isEmpty ? "" : "/") + defaultName
        guard output.mayWrite(image, shown: shown, for: input.url) else { return ExitStatus.failure }
        let showProgress = console.showsProgress
        let progress: @Sendable (Double) -> Void = { fraction in
            if showProgress { Console.printErr("\rthumbnail \(input.display): \(Int(fraction * 100))%") }
        }
        let result: ThumbnailResult
        defer { if showProgress { Console.printErr("\r\u{1B}[K") } }
        do {
            if let sheet {
                let selection: ContactSheetSelection = sheetOfHighlights ? .highlights : .evenlySpaced
                result = try await Thumbnailer().contactSheet(
                    of: input.url, frames: sheet, selection: selection, columns: columns, tileWidth: width ?? 320, to: image,
                    analysis: analysis.saved, stream: stream, progressHandler: progress)
            } else {
                result = try await Thumbnailer().thumbnail(
                    of: input.url, at: time.map { MediaTime(value: $0.value, timescale: $0.timescale) }, width: width, to: image,
                    analysis: analysis.saved, stream: stream, progressHandler: progress)
            }
        } catch .cancelled {
            let signal = signals.receivedSignal ?? SIGINT
            Console.error("interrupted by \(SignalHandling.name(of: signal)); no image was written")
            return ExitStatus.interrupted(by: signal)
        } catch {
            Console.error(ErrorText.line(for: error, input: input, extraPaths: [(image.path, shown)]))
            return ExitStatus.failure
        }
        if console.json {
            Console.printOut(JSONValue.object([
                ("source", .string(input.display)),
                ("output", .string(shown)),
                ("times", .array(result.times.map { JSONValue($0.seconds) })),
                ("width", JSONValue(result.width)),
                ("height", JSONValue(result.height)),
                ("damagedPictures", JSONValue(result.damagedPictures)),
                ("shortfall", JSONValue(result.shortfall)),
            ]).rendered())
        } else {
            let times = result.times.map { Formatting.seconds($0.seconds) }.joined(separator: ", ")
            Console.printOut("\(input.display) -> \(shown) (\(result.width)x\(result.height), at \(times))")
        }
        if let shortfall = result.shortfall {
            Console.warning("\(shown): \(result.times.count) tile\(result.times.count == 1 ? "" : "s"): \(shortfall)")
        }
        if result.damagedPictures > 0 {
            Console.warning("\(shown): \(result.damagedPictures) of its pictures are damaged in "
                + "\(input.display) itself (the decoder could only conceal them, even from the file's start)")
        }
        return ExitStatus.success
    }

    /// `--every-shot`: one image per shot into `directory`.
    private func writeEveryShot(directory: String, signals: SignalHandling) async -> Int32 {
        let showProgress = console.showsProgress
        let results: [ThumbnailResult]
        do {
            results = try await Thumbnailer().shotThumbnails(
                of: input.url, width: width, into: URL(fileURLWithPath: directory).standardizedFileURL,
                overwriting: output.overwrite, analysis: analysis.saved) { fraction in
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
        if console.json {
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
