import Foundation
import Synchronization
import Testing
@testable import ReelAnalysis
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// Thumbnails and contact sheets decoded back and compared with the video's frames.
@Suite(.timeLimit(.minutes(5))) struct ThumbnailTests {
    /// Pearson correlation of two block-mean grids (robust to JPEG's full-range levels).
    static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        let n = Double(min(a.count, b.count))
        let ma = a.map(Double.init).reduce(0, +) / n, mb = b.map(Double.init).reduce(0, +) / n
        var cov = 0.0, va = 0.0, vb = 0.0
        for (x, y) in zip(a.map(Double.init), b.map(Double.init)) {
            cov += (x - ma) * (y - mb)
            va += (x - ma) * (x - ma)
            vb += (y - mb) * (y - mb)
        }
        return cov / max((va * vb).squareRoot(), 1e-12)
    }

    @Test func keyFrameThumbnailMatchesTheDecodedKeyFrame() async throws {
        let source = try Fixtures.clip("story.mp4")
        let directory = try Fixtures.scratchDirectory()
        let analyzer = VideoAnalyzer()
        let keyFrame = try await analyzer.analyze(MediaIntelligenceVideoAsset(url: source), for: KeyFrameAnalysisRequest()).get()
        let log = ProgressLog()
        let result = try await Thumbnailer(analyzer: analyzer).thumbnail(
            of: source, to: directory.appendingPathComponent("thumb.jpg"), progressHandler: log.handler)
        #expect(log.all.last == 1 && log.all.count >= 5)
        #expect(zip(log.all, log.all.dropFirst()).allSatisfy { $0 < $1 })
        #expect(result.times == [keyFrame.timestamp])
        #expect(result.width == 320 && result.height == 180)
        let image = try FrameProbe.firstFrame(of: result.url, columns: 16, rows: 9).blocks
        let frame = try FrameProbe.frame(of: source, at: keyFrame.timestamp.seconds, columns: 16, rows: 9)
        #expect(Self.correlation(image, frame) > 0.98)
        let elsewhere = try FrameProbe.frame(of: source, at: 7.5, columns: 16, rows: 9)
        #expect(Self.correlation(image, elsewhere) < 0.9)
        #expect(Fixtures.contents(of: directory) == ["thumb.jpg"])
    }

    /// Megamind.avi's clock is 2997 ticks a second: the thumbnail's time is the key frame's,
    /// exactly (it was rounded to microseconds).
    @Test func aThumbnailsTimeIsTheKeyFramesExactly() async throws {
        let source = try FaceFixtures.footage("Megamind.avi")
        let directory = try Fixtures.scratchDirectory()
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: source))
        let keyFrame = try KeyFrameAnalysisRequest().result(from: analysis).timestamp
        let result = try await Thumbnailer().thumbnail(of: source, to: directory.appendingPathComponent("key.jpg"), analysis: analysis)
        #expect(result.times == [keyFrame] && keyFrame.timescale == 2997, "\(result.times) \(keyFrame)")
    }

    @Test func rotatedSourcesGiveUprightScaledThumbnails() async throws {
        let source = try Fixtures.clip("rotated90.mov")
        let directory = try Fixtures.scratchDirectory()
        let result = try await Thumbnailer().thumbnail(
            of: source, at: MediaTime(value: 1, timescale: 2), width: 180, to: directory.appendingPathComponent("t.png"))
        #expect(result.width == 180 && result.height == 320)
        // Upright: the coded frame turned 90 degrees clockwise.
        let n = 8
        let coded = try FrameProbe.frame(of: source, at: 0.5, columns: n, rows: n)
        var turned = [Float](repeating: 0, count: n * n)
        for row in 0..<n { for column in 0..<n { turned[row * n + column] = coded[(n - 1 - column) * n + row] } }
        let jpeg = try await Thumbnailer().thumbnail(
            of: source, at: MediaTime(value: 1, timescale: 2), to: directory.appendingPathComponent("t.jpg"))
        let image = try FrameProbe.firstFrame(of: jpeg.url, columns: n, rows: n).blocks
        #expect(Self.correlation(image, turned) > 0.95)
        #expect(Self.correlation(image, turned) > Self.correlation(image, coded) + 0.2)
    }

    @Test func contactSheetTilesEvenlySpacedFrames() async throws {
        let source = try Fixtures.clip("cfr_audio.mp4")
        let directory = try Fixtures.scratchDirectory()
        let result = try await Thumbnailer().contactSheet(
            of: source, frames: 6, tileWidth: 160, to: directory.appendingPathComponent("sheet.jpg"))
        #expect(result.times.count == 6)
        #expect(zip(result.times, result.times.dropFirst()).allSatisfy { $0 < $1 })
        // 3 x 2 tiles of 160x90 with 4 px padding between and a 4 px margin around.
        #expect(result.width == 3 * 160 + 2 * 4 + 2 * 4)
        #expect(result.height == 2 * 90 + 4 + 2 * 4)
        let probe = try MediaInfo.probe(result.url)
        #expect(probe.primaryVideo?.video?.width == result.width)
    }

    /// story.mp4 has two highlights: a sheet of 12 from highlights has two tiles and says why.
    @Test func aHighlightSheetWithFewerHighlightsSaysWhy() async throws {
        let directory = try Fixtures.scratchDirectory()
        let result = try await Thumbnailer().contactSheet(
            of: try Fixtures.clip("story.mp4"), frames: 12, selection: .highlights, tileWidth: 64,
            to: directory.appendingPathComponent("sheet.jpg"))
        #expect(result.times.count < 12)
        let reason = try #require(result.shortfall)
        #expect(reason.contains("12 frames asked for; the video has \(result.times.count) highlight"), "\(reason)")
        let even = try await Thumbnailer().contactSheet(
            of: try Fixtures.clip("story.mp4"), frames: 4, tileWidth: 64, to: directory.appendingPathComponent("even.jpg"))
        #expect(even.times.count == 4 && even.shortfall == nil)
        // A picture that never changes has no highlight: the error says so and what to do.
        let flat = directory.appendingPathComponent("flat.mp4")
        try await offPool {
            try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=25:d=4",
                                                 "-c:v", "libx264", "-preset", "ultrafast", flat.path])
        }
        let none = await Harness.reelError {
            _ = try await Thumbnailer().contactSheet(of: flat, frames: 4, selection: .highlights, tileWidth: 64,
                                                     to: directory.appendingPathComponent("none.jpg"))
        }
        guard case .nothingToKeep(let file, let reason)? = none else {
            Issue.record("expected nothingToKeep, got \(String(describing: none))")
            return
        }
        #expect(file == flat && reason.contains("--from even"), "\(reason)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("none.jpg").path))
    }

    /// An output that cannot be written fails before the key frame's analysis.
    @Test func anUnwritableThumbnailFailsBeforeAnalyzing() async throws {
        let progressed = Mutex(false)
        let error = await Harness.reelError {
            _ = try await Thumbnailer().thumbnail(
                of: try Fixtures.clip("story.mp4"), to: URL(fileURLWithPath: "/proc/reel-thumb.jpg"),
                progressHandler: { _ in progressed.withLock { $0 = true } })
        }
        guard case .invalidOutputPath = error else {
            Issue.record("expected invalidOutputPath, got \(String(describing: error))")
            return
        }
        #expect(!progressed.withLock { $0 }, "the analysis ran before the output was checked")
    }

    @Test func badRequestsAreTyped() async throws {
        let source = try Fixtures.clip("cfr_audio.mp4")
        let directory = try Fixtures.scratchDirectory()
        let late = await Harness.reelError {
            _ = try await Thumbnailer().thumbnail(of: source, at: MediaTime(value: 9, timescale: 1),
                                                  to: directory.appendingPathComponent("x.jpg"))
        }
        guard case .invalidConfiguration = late else {
            Issue.record("expected invalidConfiguration, got \(String(describing: late))")
            return
        }
        let format = await Harness.reelError {
            _ = try await Thumbnailer().thumbnail(of: source, at: .zero, to: directory.appendingPathComponent("x.gif"))
        }
        guard case .invalidOutputPath = format else {
            Issue.record("expected invalidOutputPath, got \(String(describing: format))")
            return
        }
        #expect(Fixtures.contents(of: directory).isEmpty)
    }

    /// damaged_keyframe.mp4's only keyframe is damaged: no earlier keyframe can help, so the
    /// thumbnail says the picture is damaged instead of shipping it silently.
    @Test func aPictureDamagedAtItsSourceIsReported() async throws {
        let directory = try Fixtures.scratchDirectory()
        let thumbnailer = Thumbnailer(analyzer: VideoAnalyzer())
        let source = try Fixtures.clip("damaged_keyframe.mp4")
        let damaged = try await thumbnailer.thumbnail(of: source, at: .zero, to: directory.appendingPathComponent("at0.jpg"))
        #expect(damaged.damagedPictures == 1)
        let clean = try await Thumbnailer(analyzer: VideoAnalyzer()).thumbnail(
            of: try Fixtures.clip("story.mp4"), at: MediaTime(value: 5, timescale: 1), to: directory.appendingPathComponent("clean.jpg"))
        #expect(clean.damagedPictures == 0)
    }
}

