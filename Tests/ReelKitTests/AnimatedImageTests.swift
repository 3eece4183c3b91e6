import Foundation
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// GIF and animated WebP outputs, read back with ffprobe, ffmpeg's decoder (GIF) and the
/// WebP's own chunks (FFmpeg 5.1 cannot decode animated WebP): codec, frame count and length
/// at 15 fps, size at most 480 pixels, looping forever, sound dropped, a target size never
/// exceeded, ranges kept.
@Suite(.timeLimit(.minutes(5))) struct AnimatedImageTests {
    /// The format's defaults (15 fps, 480 px) for `type`, written into a fresh directory.
    static func config(_ type: OutputFileType, in directory: URL) -> CompressionConfig {
        var config = CompressionConfig()
        config.fileType = type
        config.applyAnimatedImageDefaults()
        config.outputDirectory = directory
        return config
    }

    static func compress(_ clip: String, _ type: OutputFileType, _ configure: (inout CompressionConfig) -> Void = { _ in })
        async throws -> CompressionResult {
        var config = Self.config(type, in: try Fixtures.scratchDirectory("\(clip)-\(type)"))
        configure(&config)
        return try await VideoCompressor().compressVideo(try Fixtures.clip(clip), config: config)
    }

    /// Frames, width, height and seconds of a GIF, decoded by ffprobe.
    static func gifFacts(_ url: URL) throws -> (frames: Int, width: Int, height: Int, duration: Double, streams: [String]) {
        let json = try Fixtures.ffprobe(url, ["-count_frames", "-show_entries", "stream=codec_name,width,height,nb_read_frames:format=duration"])
        let streams = json["streams"] as? [[String: Any]] ?? []
        let video = streams.first ?? [:]
        let duration = ((json["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init) ?? 0
        return (Int(video["nb_read_frames"] as? String ?? "") ?? 0, video["width"] as? Int ?? 0, video["height"] as? Int ?? 0,
                duration, streams.compactMap { $0["codec_name"] as? String })
    }

    /// The loop count of a GIF's NETSCAPE2.0 application extension (0: forever), nil without one.
    static func gifLoopCount(_ url: URL) throws -> Int? {
        let bytes = [UInt8](try Data(contentsOf: url))
        let marker = Array("NETSCAPE2.0".utf8)
        guard let at = (0...(bytes.count - marker.count - 5)).first(where: { bytes[$0..<$0 + marker.count].elementsEqual(marker) })
        else { return nil }
        let block = at + marker.count
        // Sub-block of 3 bytes: 1, then the count, little-endian.
        guard bytes[block] == 3, bytes[block + 1] == 1 else { return nil }
        return Int(bytes[block + 2]) | Int(bytes[block + 3]) << 8
    }

    /// SSIM of a GIF against its source, both at 15 fps and the GIF's size, by ffmpeg.
    static func ssim(_ output: URL, against source: URL, width: Int, height: Int) throws -> Double {
        let line = try Fixtures.run("/bin/sh", ["-c",
            "ffmpeg -nostats -i '\(source.path)' -i '\(output.path)' -lavfi '[0:v]fps=15,scale=\(width):\(height):flags=lanczos,"
                + "format=rgb24[r];[1:v]fps=15,format=rgb24[d];[d][r]ssim' -f null - 2>&1 | grep -o 'All:[0-9.]*'"])
        return Double(line.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(4)) ?? 0
    }

    @Test(arguments: [("cfr_audio.mp4", 3.0, 480, 270), ("preset_source.mp4", 1.5, 480, 270)])
    func gifAtFifteenFramesASecondLoopingForever(_ clip: String, _ seconds: Double, _ width: Int, _ height: Int) async throws {
        let result = try await Self.compress(clip, .gif)
        #expect(result.url.pathExtension == "gif")
        let facts = try Self.gifFacts(result.url)
        #expect(facts.streams == ["gif"], "one picture stream, no sound")
        #expect(facts.width == width && facts.height == height)
        #expect(abs(Double(facts.frames) - seconds * 15) <= 1, "\(facts.frames) frames for \(seconds) s")
        #expect(abs(facts.duration - seconds) <= 0.07, "\(facts.duration) s")
        #expect(try Self.gifLoopCount(result.url) == 0, "NETSCAPE2.0 loop count 0: forever")
        #expect(result.analytics.droppedTracks.contains { $0.role == .primaryAudio && $0.reason.contains("pictures only") })
        #expect(result.analytics.videoCodec == "gif" && result.analytics.compressedFrameCount == facts.frames)
        let ssim = try Self.ssim(result.url, against: try Fixtures.clip(clip), width: width, height: height)
        #expect(ssim > 0.9, "SSIM \(ssim) against the source")
    }

    @Test(arguments: [("cfr_audio.mp4", 3.0), ("preset_source.mp4", 1.5)])
    func webpAtFifteenFramesASecondLoopingForever(_ clip: String, _ seconds: Double) async throws {
        let result = try await Self.compress(clip, .webp)
        #expect(result.url.pathExtension == "webp")
        let probed = try Fixtures.ffprobe(result.url, ["-show_entries", "stream=codec_name"])
        #expect((probed["streams"] as? [[String: Any]])?.compactMap { $0["codec_name"] as? String } == ["webp"])
        let webp = try #require(AnimatedWebPInfo(contentsOf: result.url), "an animated WebP (VP8X canvas, ANIM chunk)")
        #expect(webp.loopCount == 0, "ANIM loop count 0: forever")
        #expect(webp.width == 480 && webp.height == 270)
        #expect(abs(Double(webp.frameDurations.count) - seconds * 15) <= 1, "\(webp.frameDurations.count) frames")
        #expect(webp.frameDurations.allSatisfy { (66...67).contains($0) }, "\(Set(webp.frameDurations)) ms")
        #expect(abs(webp.duration - seconds) <= 0.07)
        let analytics = result.analytics
        #expect(analytics.compressedDimensions == VideoDimensions(width: 480, height: 270))
        #expect(analytics.compressedFrameCount == webp.frameDurations.count && abs(analytics.compressedDuration - webp.duration) < 0.001)
        #expect(analytics.droppedTracks.contains { $0.role == .primaryAudio })
    }

    /// A target size: each output is measured and the next made smaller until one fits; the
    /// kept one is never over.
    @Test(arguments: [(OutputFileType.gif, Int64(250_000)), (.webp, 90_000)])
    func targetSizeIsNeverExceeded(_ type: OutputFileType, _ target: Int64) async throws {
        let result = try await Self.compress("cfr_audio.mp4", type) { $0.targetFileSize = .bytes(target) }
        let size = TargetSizeTests.size(result.url)
        let report = try #require(result.analytics.targetSize)
        #expect(size <= target && report.achievedBytes == size, "\(size) bytes for \(target)")
        // The untargeted GIF is 748 kB and the WebP 254 kB: at least one more encode, smaller.
        #expect(report.encodes >= 2 && report.attempts.count == report.encodes, "\(report.attempts)")
        #expect(report.loweredFrameRate != nil, "the frame rate gives way first")
        #expect(Double(size) >= 0.4 * Double(target), "\(size) bytes: far below the target")
    }

    /// Megamind.avi (real footage) as a GIF of at most 500 kB: the model lowers the first encode
    /// (9.2 MB) to 0.28 MB, far under; a step back up goes over, half a step fits. The largest
    /// encode that fits is kept, and the failed try leaves nothing beside the output.
    @Test func aFitFarUnderTheTargetIsFollowedByAStepBackUp() async throws {
        let target: Int64 = 500_000
        let directory = try Fixtures.scratchDirectory("megamind-gif-target")
        var config = Self.config(.gif, in: directory)
        config.targetFileSize = .bytes(target)
        let result = try await VideoCompressor().compressVideo(try FaceFixtures.footage("Megamind.avi"), config: config)
        let report = try #require(result.analytics.targetSize)
        let sizes = report.attempts.map { $0[2] }
        let firstFit = try #require(sizes.first { $0 <= target })
        try #require(Double(firstFit) < 0.8 * Double(target), "no room to step back up: \(report.attempts)")
        let size = TargetSizeTests.size(result.url)
        #expect(size <= target && size == sizes.filter { $0 <= target }.max(), "\(report.attempts)")
        #expect(size > firstFit && report.encodes == sizes.count && sizes.count <= 6, "\(report.attempts)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [result.url.lastPathComponent])
    }

    /// Ranges (a highlight reel's, or a list) and a reducer keep working: the output holds the
    /// kept time at 15 fps.
    @Test func rangesAreKept() async throws {
        let ranges = [(0.5, 1.0), (2.0, 2.8)].map {
            TimeRange(start: MediaTime(seconds: $0.0, timescale: 1000), end: MediaTime(seconds: $0.1, timescale: 1000))
        }
        let result = try await Self.compress("cfr_audio.mp4", .gif) { $0.trim = .ranges(ranges) }
        let facts = try Self.gifFacts(result.url)
        #expect(abs(Double(facts.frames) - 1.3 * 15) <= 2, "\(facts.frames) frames for 1.3 s")
        #expect(abs(facts.duration - 1.3) <= 0.1)
    }

    /// A GIF has no rotation tag: a phone's portrait clip (stored 640x360, shown turned 90
    /// degrees) comes out upright; an HDR (PQ) source is tone-mapped to SDR on the way.
    @Test func rotatedAndHDRSourcesComeOutUpright() async throws {
        let rotated = try Self.gifFacts(try await Self.compress("rotated90.mp4", .gif).url)
        #expect(rotated.width == 270 && rotated.height == 480, "\(rotated)")
        let hdr = try await Self.compress("hdr_pq.mp4", .gif)
        #expect(hdr.analytics.encoding?.hdr != nil && hdr.analytics.encoding?.videoFilter.contains("paletteuse") == true)
    }

    /// One palette for the whole output holds every picture back until the last: past the
    /// memory budget (about a minute at 480x270, 15 fps) each picture gets its own palette.
    @Test func aLongGIFGetsAPalettePerPicture() {
        let minute = GIFPalette.filter(colours: 256, frames: 900, pixels: 480 * 270)
        #expect(minute.contains("stats_mode=full") && !minute.contains("new=1"), "\(minute)")
        let hour = GIFPalette.filter(colours: 256, frames: 54_000, pixels: 480 * 270)
        #expect(hour.contains("stats_mode=single") && hour.hasSuffix(":new=1"), "\(hour)")
    }

    @Test func whatAnAnimatedImageCannotTake() throws {
        var copy = CompressionConfig()
        copy.fileType = .gif
        copy.streamCopy = true
        #expect(throws: ReelError.self) { try copy.validate() }
        var quality = CompressionConfig()
        quality.fileType = .webp
        quality.targetQuality = TargetQuality(.ssim, 0.95)
        #expect(throws: ReelError.self) { try quality.validate() }
        var size = CompressionConfig()
        size.fileType = .gif
        size.fps = 24
        size.applyAnimatedImageDefaults(frameRate: false)
        #expect(size.fps == 24 && size.maxLongerDimension == 480, "a chosen frame rate is kept")
        var video = CompressionConfig()
        video.applyAnimatedImageDefaults()
        #expect(video.fps == 30 && video.maxLongerDimension == nil, "MP4 is left alone")
    }
}
