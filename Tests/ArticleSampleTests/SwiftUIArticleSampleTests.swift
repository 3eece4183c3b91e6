import Foundation
import Testing
import ReelKit

/// Runs the SwiftUI article's code (SwiftUIArticleSamples.swift) on real footage: the key frame
/// as an image in memory, and its view's highlight and engagement rows.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SwiftUIArticleSampleTests {
    /// Real footage fetched by Fixtures/fetch-real-footage.sh into the fixture cache (only what
    /// is missing or does not match its sha256 is downloaded).
    static func footage(_ name: String) throws -> URL {
        let directory = ArticleSampleTests.root.appendingPathComponent(".build/fixture-cache/footage")
        try run(ArticleSampleTests.root.appendingPathComponent("Fixtures/fetch-real-footage.sh").path, [directory.path], timeout: 900)
        return directory.appendingPathComponent(name)
    }

    /// Runs a program to its end (or `timeout` seconds); returns what it printed.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], timeout: Double = 120) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("article-\(UUID().uuidString)")
        try #require(FileManager.default.createFile(atPath: output.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(program) \(arguments.joined(separator: " ")) failed or took over \(timeout) s")
        return try Data(contentsOf: output)
    }

    /// `data` (an image file's bytes, or a video at `seconds`) decoded by the ffmpeg CLI as
    /// packed RGB.
    static func rgbFromFFmpeg(_ input: URL, seek seconds: Double? = nil) throws -> Data {
        var arguments = ["-v", "error", "-nostdin"]
        if let seconds { arguments += ["-ss", String(format: "%.6f", seconds)] }
        arguments += ["-i", input.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        return try run("/usr/bin/ffmpeg", arguments)
    }

    static func meanDifference(_ a: [UInt8], _ b: Data) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        var total = 0
        for (x, y) in zip(a, b) { total += abs(Int(x) - Int(y)) }
        return Double(total) / Double(a.count)
    }

    @Test func extractKeyframeReturnsTheKeyFrameAsAnImage() async throws {
        let clip = try Self.footage("Megamind.avi")
        let (image, time) = try await VideoAnalysisManager().extractKeyframe(clip)
        let keyFrame = try await VideoAnalyzer.shared.analyze(MediaIntelligenceVideoAsset(url: clip), for: KeyFrameAnalysisRequest()).get()
        // The frame shown at the key frame's exact time, at the video's size.
        #expect(time == keyFrame.timestamp)
        #expect(image.time == time)
        let video = try #require(try MediaInfo.probe(clip).primaryVideo?.video)
        #expect(image.width == video.width && image.height == video.height)
        #expect(image.pixels.count == image.width * image.height * 3)
        // The same picture as the ffmpeg CLI's decode of that frame (it seeks to the first frame
        // at or after a time: just before the key frame's).
        let reference = try Self.rgbFromFFmpeg(clip, seek: max(time.seconds - 0.001, 0))
        #expect(Self.meanDifference(image.pixels, reference) < 3, "mean difference \(Self.meanDifference(image.pixels, reference))")
        // The frame 2 s away is another picture: the comparison tells frames apart.
        let elsewhere = try Self.rgbFromFFmpeg(clip, seek: time.seconds > 5 ? time.seconds - 2 : time.seconds + 2)
        #expect(Self.meanDifference(image.pixels, elsewhere) > 5)

        // JPEG and PNG bytes, through FFmpeg's encoders: files the ffmpeg CLI reads back.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("article-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let jpeg = try image.jpegData()
        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8] && Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        try jpeg.write(to: scratch.appendingPathComponent("key.jpg"))
        #expect(Self.meanDifference(image.pixels, try Self.rgbFromFFmpeg(scratch.appendingPathComponent("key.jpg"))) < 3)
        let png = try image.pngData()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        try png.write(to: scratch.appendingPathComponent("key.png"))
        // PNG is lossless: the very pixels.
        #expect(try Self.rgbFromFFmpeg(scratch.appendingPathComponent("key.png")) == Data(image.pixels))
    }

    @Test func createAssetRefusesAURLThatIsNotAFile() async throws {
        await #expect(throws: VideoAnalysisError.self) {
            _ = try await VideoAnalysisManager().extractKeyframe(try #require(URL(string: "https://example.com/video.mp4")))
        }
    }

    @Test func formattedReadsTheSecondsOfACMTime() {
        #expect(CMTime(seconds: 65.25, preferredTimescale: 600).formatted == "01:05.250")
        #expect(CMTimeRange(start: CMTime(seconds: 2, preferredTimescale: 600), duration: CMTime(value: 3, timescale: 2)).end.formatted
            == "00:03.500")
    }

    /// The view's logic on real clips: every highlight finds its level among the levels, and
    /// the engagement rows are the other levels, which with the highlights cover the video.
    @Test(arguments: ["Megamind.avi", "bikes.mp4", "vtest.avi", "trailer_bbb.mp4"])
    func everyHighlightFindsItsLevel(clip name: String) async throws {
        let clip = try Self.footage(name)
        let (highlights, engagementLevels) = try await VideoAnalysisManager().extractHighlights(clip)
        let rows = ArticleViewLogic.highlightRows(highlights: highlights, engagementLevels: engagementLevels)
        let others = ArticleViewLogic.engagementRows(highlights: highlights, engagementLevels: engagementLevels)
        #expect(!highlights.isEmpty, "\(name) has highlights")
        for row in rows {
            let level = try #require(row.engagementLevel, "\(name): highlight \(row.range) is not one of the levels")
            // A highlight is made of segments at level 6 or above.
            #expect(level >= 6, "\(name): highlight \(row.range) at level \(level)")
            #expect(row.texts.count == 2 && row.texts[1] == "Level: \(Int(level))")
        }
        #expect(rows.count + others.count == engagementLevels.count)
        // The levels still cover the video, in order, without gaps or overlaps.
        let duration = try MediaInfo.probe(clip).duration
        #expect(engagementLevels.first?.timeRange.start == .zero)
        #expect(abs((engagementLevels.last?.timeRange.end.seconds ?? 0) - duration) < 0.1)
        for (a, b) in zip(engagementLevels, engagementLevels.dropFirst()) {
            #expect(a.timeRange.end == b.timeRange.start && !a.timeRange.isEmpty, "\(name): \(a.timeRange) then \(b.timeRange)")
        }
        #expect(engagementLevels.allSatisfy { (0...9).contains($0.level) })
    }
}
