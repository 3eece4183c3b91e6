import Foundation
import ReelAnalysis
import ReelMedia
import ReelSupport

/// An image written from a video: where, which frames, how big.
public struct ThumbnailResult: Sendable, Equatable {
    /// The image file.
    public var url: URL
    /// The exact presentation times of the frames in it, in layout order, on the API's timeline
    /// (zero is the file's start).
    public var times: [MediaTime]
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// Pictures in the image the decoder could only conceal: damaged in the source even when
    /// decoded from its start (0 for a clean image).
    public var damagedPictures = 0
    /// Why a contact sheet has fewer frames than were asked for (the video has fewer
    /// highlights), or `nil` when it has them all.
    public var shortfall: String? = nil
}

/// Which frames a contact sheet shows.
public enum ContactSheetSelection: Sendable, Equatable {
    /// Frames spread evenly over the video.
    case evenlySpaced
    /// The middle of each highlight (the most engaging ones when there are more than asked).
    case highlights
}

/// Writes still images from videos: a thumbnail (the key frame by default) or a contact sheet.
/// JPEG or PNG by the output's extension; rotation is applied so pictures are upright.
public final class Thumbnailer: Sendable {
    private let analyzer: VideoAnalyzer

    /// Creates a thumbnailer; the key frame and highlights come from `analyzer`.
    public init(analyzer: VideoAnalyzer = .shared) {
        self.analyzer = analyzer
    }

    /// Writes the frame on screen at `time` (the key frame when nil), `width` pixels wide
    /// (the picture's own width when nil), to `output` (`.jpg`, `.jpeg` or `.png`). `stream`
    /// takes the picture from another video stream (its index as `MediaInfo.streams` lists it,
    /// such as a Cinematic video's disparity track) at that time; a non-video stream is a typed error.
    public func thumbnail(of source: URL, at time: MediaTime? = nil, width: Int? = nil, to output: URL,
                          analysis given: VideoAnalysis? = nil, stream: Int? = nil,
                          progressHandler: (@Sendable (Double) -> Void)? = nil) async throws(ReelError) -> ThumbnailResult {
        let reporter = ProgressReporter(progressHandler)
        try OutputLocation.check(for: source, finalURL: output)
        let info = try await Self.probe(source)
        try Self.requireVideoStream(stream, of: info)
        // The writer seeks on the file's clock.
        let seconds = try await frameTime(time, of: source, info: info, given: given, reporter: reporter) + info.startTime
        let result = try await write(source: source, info: info, times: [seconds], columns: nil, width: width, output: output,
                                     stream: stream)
        reporter.finish()
        return result
    }

    /// Writes one image per request (the frame on screen at its time, at its width, to its
    /// output), from the primary video. The pictures are decoded in one pass in time order, so
    /// several from one GOP cost one decode of it (a report's or a shot list's pictures); all
    /// are written before any is renamed into place, so a failure leaves none.
    public func thumbnails(of source: URL, _ requests: [ThumbnailRequest]) async throws(ReelError) -> [ThumbnailResult] {
        for request in requests { try OutputLocation.check(for: source, finalURL: request.output) }
        let info = try await Self.probe(source)
        // The writer seeks on the file's clock.
        var images: [StillRequest] = []
        for request in requests {
            let seconds = try await frameTime(request.time, of: source, info: info, given: nil, reporter: ProgressReporter(nil))
            images.append(StillRequest(times: [seconds + info.startTime], columns: nil, width: request.width, output: request.output))
        }
        return try await writeEach(source: source, info: info, images: images).results
    }

    /// `time` checked to lie inside the video, or the key frame's time when nil (analysing in
    /// the first 90% of `reporter`), in seconds on the API's timeline (zero = the file's start).
    private func frameTime(_ time: MediaTime?, of source: URL, info: MediaInfo, given: VideoAnalysis?,
                           reporter: ProgressReporter) async throws(ReelError) -> Double {
        if let time {
            guard time >= .zero, time.seconds < info.duration else {
                throw .invalidConfiguration(String(format: "time %.3f s is outside the %.3f s video", time.seconds, info.duration))
            }
            return time.seconds
        }
        let analysis = try await analysis(of: source, info: info, given: given, progress: reporter.subrange(from: 0, to: 0.9))
        return try KeyFrameAnalysisRequest().result(from: analysis).timestamp.seconds
    }

    /// A typed error unless `stream` (when given) is one of `info`'s video streams, as `reel
    /// probe` numbers them; the error lists the ones there are.
    static func requireVideoStream(_ stream: Int?, of info: MediaInfo) throws(ReelError) {
        guard let stream else { return }
        let videos = info.streams.filter { $0.kind == .video && $0.role != .coverArt }
        guard !videos.contains(where: { $0.index == stream }) else { return }
        let list = videos.map { "#\($0.index)" }.joined(separator: ", ")
        throw .invalidConfiguration("stream \(stream) is not a video stream of \(info.url.lastPathComponent); its video streams are \(list)",
                                    file: info.url)
    }

    /// The frame on screen at `time` (the key frame when nil) as an image in memory: its
    /// stored size, upright unless `upright` is false (the display rotation left undone), with
    /// the frame's exact presentation time (at `time` itself when a frame starts there, as the
    /// key frame does). `stream` takes the picture from another video stream, as `thumbnail`.
    public func image(of source: URL, at time: MediaTime? = nil, upright: Bool = true, analysis given: VideoAnalysis? = nil,
                      stream: Int? = nil, progressHandler: (@Sendable (Double) -> Void)? = nil) async throws(ReelError) -> FrameImage {
        let reporter = ProgressReporter(progressHandler)
        let info = try await Self.probe(source)
        try Self.requireVideoStream(stream, of: info)
        let seconds = try await frameTime(time, of: source, info: info, given: given, reporter: reporter)
        let image = try await BlockingWork.run(flag: CancellationFlag()) { () throws(ReelError) in
            try translatingFailures(source: source, output: source) { () throws(MediaFailure) in
                try FrameImage.decode(info, at: seconds, upright: upright, stream: stream)
            }
        }
        reporter.finish()
        return image
    }

    /// Writes `count` frames as one contact sheet with `columns` columns (about square when
    /// nil), each tile `tileWidth` pixels wide.
    public func contactSheet(of source: URL, frames count: Int, selection: ContactSheetSelection = .evenlySpaced,
                             columns: Int? = nil, tileWidth: Int = 320, to output: URL, analysis given: VideoAnalysis? = nil,
                             stream: Int? = nil, progressHandler: (@Sendable (Double) -> Void)? = nil) async throws(ReelError) -> ThumbnailResult {
        let reporter = ProgressReporter(progressHandler)
        guard (1...100).contains(count) else { throw .invalidConfiguration("a contact sheet has 1 to 100 frames, not \(count)") }
        guard tileWidth >= 16 else { throw .invalidConfiguration("tile width must be at least 16 pixels") }
        try OutputLocation.check(for: source, finalURL: output)
        let info = try await Self.probe(source)
        try Self.requireVideoStream(stream, of: info)
        var times: [Double]
        var shortfall: String?
        switch selection {
        case .evenlySpaced:
            times = (0..<count).map { info.startTime + info.duration * (Double($0) + 0.5) / Double(count) }
        case .highlights:
            let analysis = try await analysis(of: source, info: info, given: given, progress: reporter.subrange(from: 0, to: 0.8))
            let ranges = HighlightRequestRanges.best(analysis, count: count)
            guard !ranges.isEmpty else { throw .nothingToKeep(source, reason: "no highlights (nothing in it stands out); take frames evenly instead (--from even)") }
            // Each highlight's best poster picture (a subject in frame, sharp), not its middle.
            times = ranges.map { info.startTime + analysis.bestPicture(in: $0).seconds }
            if ranges.count < count {
                shortfall = "\(count) frames asked for; the video has \(ranges.count) highlight\(ranges.count == 1 ? "" : "s"), one frame each"
            }
        }
        times.sort()
        let layout = columns ?? max(1, Int(Double(times.count).squareRoot().rounded(.up)))
        let sheet = StillRequest(times: times, columns: layout, width: tileWidth, output: output)
        var (results, dataEnd) = try await writeEach(source: source, info: info, images: [sheet], stream: stream)
        // A file cut short (an interrupted download) whose header claims more: its last tiles
        // would all repeat the last picture, so the tiles are spread over the data there is.
        if selection == .evenlySpaced, let end = dataEnd, end > info.startTime,
           DataEnd.fallsShort(end, of: info.startTime + info.duration, lasting: info.duration) {
            let span = end - info.startTime
            let spread = (0..<count).map { info.startTime + span * (Double($0) + 0.5) / Double(count) }
            results = try await writeEach(source: source, info: info, images: [StillRequest(
                times: spread, columns: layout, width: tileWidth, output: output)], stream: stream).results
        }
        guard var result = results.first else { throw .invalidConfiguration("no picture was asked for") }
        result.shortfall = shortfall
        reporter.finish()
        return result
    }

    /// Writes one image per shot into `directory` (created if missing), each shot's best poster
    /// picture, named `NAME-shot-001-12.50s.EXT` (`format`: `jpg` or `png`); returns them in time
    /// order. An existing image is replaced only when `overwriting`.
    public func shotThumbnails(of source: URL, width: Int? = nil, into directory: URL, format: String = "jpg",
                               overwriting: Bool = false, analysis given: VideoAnalysis? = nil,
                               progressHandler: (@Sendable (Double) -> Void)? = nil) async throws(ReelError) -> [ThumbnailResult] {
        let reporter = ProgressReporter(progressHandler)
        let info = try await Self.probe(source)
        let analysis = try await analysis(of: source, info: info, given: given, progress: reporter.subrange(from: 0, to: 0.8))
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .invalidOutputPath(directory, reason: "cannot create the directory: \(error.localizedDescription)")
        }
        let base = source.deletingPathExtension().lastPathComponent
        var images: [StillRequest] = []
        for (index, shot) in analysis.shots.enumerated() {
            let output = directory.appendingPathComponent(
                String(format: "%@-shot-%03d-%.2fs.%@", base, index + 1, shot.start.seconds, format))
            if !overwriting && FileManager.default.fileExists(atPath: output.path) {
                throw .invalidOutputPath(output, reason: "it already exists")
            }
            let time = info.startTime + analysis.bestPicture(in: shot).seconds
            images.append(StillRequest(times: [time], columns: nil, width: width, output: output))
        }
        if Task.isCancelled { throw .cancelled }
        // One decode pass for all of them: shots of one GOP cost one decode of it.
        let results = try await writeEach(source: source, info: info, images: images).results
        reporter.finish()
        return results
    }

    /// The thumbnail job's one probe, off the cooperative pool (no bit rates needed).
    /// `given` when it is an analysis of `source` (else a typed error), or the analyzer's.
    private func analysis(
        of source: URL, info: MediaInfo, given: VideoAnalysis?, progress: ProgressReporter
    ) async throws(ReelError) -> VideoAnalysis {
        if let given {
            try given.requireSource(info)
            return given
        }
        return try await analyzer.analysis(of: MediaIntelligenceVideoAsset(url: source), probed: info) { progress.report($0) }
    }

    private static func probe(_ source: URL) async throws(ReelError) -> MediaInfo {
        try await BlockingWork.run(flag: CancellationFlag()) { () throws(ReelError) in
            let info = try MediaInfo.probe(source, measuringBitRates: false)
            try info.requireVideo()
            return info
        }
    }

    private func write(source: URL, info: MediaInfo, times: [Double], columns: Int?, width: Int?,
                       output: URL, stream: Int? = nil) async throws(ReelError) -> ThumbnailResult {
        let image = StillRequest(times: times, columns: columns, width: width, output: output)
        guard let result = try await writeEach(source: source, info: info, images: [image], stream: stream).results.first else {
            throw .invalidConfiguration("no picture was asked for")
        }
        return result
    }

    /// What one image of `writeEach` shows.
    struct StillRequest {
        var times: [Double]
        var columns: Int?
        var width: Int?
        var output: URL
    }

    /// Writes every image of `images`, decoding their pictures in one pass in time order (see
    /// `StillImageWriter.writeEach`); each goes to a temporary file and is renamed into place
    /// once all are written, so a failure or cancel leaves none. Also says where the stream's
    /// data ended (file seconds) when the decode read to the file's end.
    private func writeEach(source: URL, info: MediaInfo, images: [StillRequest],
                           stream: Int? = nil) async throws(ReelError) -> (results: [ThumbnailResult], dataEnd: Double?) {
        let rotation = (stream.flatMap { index in info.streams.first { $0.index == index } } ?? info.primaryVideo)?.video?.rotation ?? 0
        var locations: [OutputLocation] = []
        var plans: [StillImagePlan] = []
        do throws(ReelError) {
            for image in images {
                if let width = image.width, width < 16 { throw .invalidConfiguration("width must be at least 16 pixels") }
                let encoder: String
                switch image.output.pathExtension.lowercased() {
                case "jpg", "jpeg": encoder = "mjpeg"
                case "png": encoder = "png"
                default: throw .invalidOutputPath(image.output, reason: "use a .jpg, .jpeg or .png name")
                }
                let location = try OutputLocation.resolve(for: source, finalURL: image.output)
                locations.append(location)
                plans.append(StillImagePlan(
                    source: info, outputPath: location.temporaryURL.path, times: image.times, columns: image.columns,
                    width: image.width, rotation: rotation, encoderName: encoder, streamIndex: stream))
            }
        } catch {
            OutputLocation.abandon(locations)
            throw error
        }
        let flag = CancellationFlag()
        let written: (images: [(times: [MediaTime], width: Int, height: Int, damaged: Int)], dataEnd: Double?)
        let firstOutput = locations.first?.temporaryURL ?? source
        do throws(ReelError) {
            written = try await BlockingWork.run(flag: flag) { [plans] () throws(ReelError) in
                try translatingFailures(source: source, output: firstOutput) { () throws(MediaFailure) in try StillImageWriter.writeEach(plans) { flag.isRaised } }
            }
            for location in locations { try location.commit() }
        } catch {
            OutputLocation.abandon(locations)
            throw locations.first.map { $0.naming(error) } ?? error
        }
        // Reported on the API's timeline: zero is the file's start. A file that starts at zero
        // keeps its frames' exact times (a zero in microseconds would round a 2997 clock).
        let origin = MediaTime(seconds: info.startTime, timescale: 1_000_000)
        let results = zip(images, written.images).map { image, written in
            let times = info.startTime == 0 ? written.times : written.times.map { $0 - origin }
            var result = ThumbnailResult(url: image.output, times: times, width: written.width, height: written.height)
            result.damagedPictures = written.damaged
            return result
        }
        return (results, written.dataEnd)
    }
}

/// The highlight ranges a contact sheet shows: the most engaging first, at most `count`.
enum HighlightRequestRanges {
    static func best(_ analysis: VideoAnalysis, count: Int) -> [TimeRange] {
        let ranges = HighlightSelector.highlights(analysis, minimumLevel: nil)
        return Array(ranges.sorted { analysis.peakLevel(in: $0) > analysis.peakLevel(in: $1) }.prefix(count))
    }
}

/// One image `Thumbnailer.thumbnails(of:_:)` writes.
public struct ThumbnailRequest: Sendable {
    /// The time of the picture on the video's timeline (zero is the file's start).
    public var time: MediaTime
    /// Image width in pixels; `nil` keeps the picture's own.
    public var width: Int?
    /// The image file (`.jpg`, `.jpeg` or `.png`).
    public var output: URL

    /// A request for the picture at `time`.
    public init(time: MediaTime, width: Int? = nil, output: URL) {
        self.time = time
        self.width = width
        self.output = output
    }
}
