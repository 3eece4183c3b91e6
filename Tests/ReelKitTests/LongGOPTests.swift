import Foundation
import Testing
@testable import ReelCompression
import ReelFrameReduction
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// Files whose whole length is one GOP (x265's and many cameras' 10 s keyframe interval at 4K):
/// readers that want several moments decode on through it instead of going back to its one
/// keyframe for each, and still get the very pictures a seek would give.
@Suite struct LongGOPTests {
    /// An 8 s clip coded as one GOP with B frames, the same stream in MPEG-TS (no index) and as
    /// raw H.264 (no timestamps, no seeking), and each file's packet count.
    static func oneGOPClips(in directory: URL) throws -> [(url: URL, packets: Int)] {
        let mp4 = directory.appendingPathComponent("one-gop.mp4")
        let ts = directory.appendingPathComponent("one-gop.ts")
        let raw = directory.appendingPathComponent("one-gop.h264")
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=8",
                                             "-c:v", "libx264", "-preset", "ultrafast", "-bf", "3", "-g", "1000",
                                             "-keyint_min", "1000", "-sc_threshold", "0", mp4.path])
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", mp4.path, "-c", "copy", ts.path])
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", mp4.path, "-c", "copy",
                                             "-bsf:v", "h264_mp4toannexb", "-f", "h264", raw.path])
        return try [mp4, ts, raw].map { url in
            let counted = try Fixtures.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_packets",
                                                                "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", url.path])
            // MPEG-TS prints an empty line for a program before the stream's.
            let number = counted.split(whereSeparator: \.isNewline).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first
            return (url, number ?? 0)
        }
    }

    static func packetsRead(_ url: URL) -> Int { InputFile.packetsRead.withLock { $0[url.path] ?? 0 } }

    /// Eight tiles used to decode from the keyframe eight times (4.5 times the file); now the
    /// file is read about once, and each tile is the picture a seek to its time shows.
    @Test func aContactSheetOfOneGOPReadsItOnceAndShowsWhatSeeksShow() throws {
        let directory = try Fixtures.scratchDirectory()
        for (url, packets) in try Self.oneGOPClips(in: directory) {
            #expect(packets == 200, "\(url.lastPathComponent): \(packets) packets")
            let source = try MediaInfo.probe(url)
            let times = (0..<8).map { 0.3 + Double($0) * 0.97 }
            let before = Self.packetsRead(url)
            let sheet = directory.appendingPathComponent(url.lastPathComponent + ".png")
            let written = try StillImageWriter.write(StillImagePlan(
                source: source, outputPath: sheet.path, times: times, columns: 4, width: 80, rotation: 0, encoderName: "png"))
            let read = Self.packetsRead(url) - before
            #expect(read <= packets + packets / 10, "\(url.lastPathComponent): \(read) packets read for a file of \(packets)")
            #expect(written.damaged == 0)

            let index = try #require(source.primaryVideoStreamIndex)
            let input = try InputFile.reopen(source, keeping: [index])
            let decoder = try Decoder(input: input, streamIndex: index, threads: 1)
            var visited = [(Frame, MediaTime)?](repeating: nil, count: times.count)
            try decoder.visitFramesOnScreen(at: times.reversed(), in: input, fileStart: input.startSeconds) { index, frame, time in
                visited[index] = (frame, time)
            }
            let together = visited.compactMap { $0 }.reversed()
            for (time, (frame, shown)) in zip(times, together) {
                let alone = try InputFile.reopen(source, keeping: [index])
                let (single, singleShown) = try Decoder(input: alone, streamIndex: index, threads: 1)
                    .frameOnScreen(at: time, in: alone, fileStart: alone.startSeconds)
                #expect(shown == singleShown, "\(url.lastPathComponent) at \(time)")
                let grid = try #require(LumaGrid(frame: frame.pointer, patch: 4))
                let singleGrid = try #require(LumaGrid(frame: single.pointer, patch: 4))
                #expect(grid.difference(to: singleGrid) == 0, "\(url.lastPathComponent) at \(time)")
                #expect(written.times.contains(shown))
            }
        }
    }

    /// Content-aware tuning measures six moments; through one GOP it decodes on from one to
    /// the next (it decoded from the keyframe six times, 3.5 times the file).
    @Test func contentIsMeasuredInOnePassThroughOneGOP() throws {
        let directory = try Fixtures.scratchDirectory()
        for (url, packets) in try Self.oneGOPClips(in: directory) {
            let source = try MediaInfo.probe(url)
            let before = Self.packetsRead(url)
            // On the file's clock (the MPEG-TS starts at 1.48 s): a seek there lands past its only
            // keyframe and decodes nothing; 2 s of packets on it is given up, and the measure
            // starts earlier (before, it read to the end and measured nothing).
            let profile = try ContentSampler.measure(
                source: source, streamIndex: try #require(source.primaryVideoStreamIndex), start: source.startTime,
                end: source.startTime + 8, shouldCancel: { false })
            let read = Self.packetsRead(url) - before
            #expect(profile.samples == 6, "\(profile)")
            #expect(profile.motion > 0.001 && profile.detail > 0.001, "\(profile)")
            let landing = url.pathExtension == "ts" ? Int(ContentSampler.landingSearch * 25) : 0
            #expect(read <= packets + landing, "\(url.lastPathComponent): \(read) packets read for a file of \(packets)")
        }
    }

    /// A shot list's or a report's pictures are decoded in one pass too, and each image is
    /// the one a thumbnail of its own time gives, byte for byte.
    @Test func severalThumbnailsOfOneGOPReadItOnce() async throws {
        let directory = try Fixtures.scratchDirectory()
        for (url, packets) in try Self.oneGOPClips(in: directory) where url.pathExtension != "h264" {
            let times = [6.5, 1.2, 3.3, 7.7].map { MediaTime(seconds: $0, timescale: 1000) }
            let requests = times.enumerated().map { index, time in
                ThumbnailRequest(time: time, width: index == 0 ? 160 : 96,
                                 output: directory.appendingPathComponent("\(url.pathExtension)-\(index).jpg"))
            }
            let before = Self.packetsRead(url)
            let results = try await Thumbnailer().thumbnails(of: url, requests)
            let read = Self.packetsRead(url) - before
            // MPEG-TS has no index: a seek there is tried, and these times are too far apart
            // for the first ones to be reached by going on.
            if url.pathExtension == "mp4" {
                #expect(read <= packets + packets / 10, "\(url.lastPathComponent): \(read) packets read for a file of \(packets)")
            }
            #expect(results.map(\.url) == requests.map(\.output))
            for (index, request) in requests.enumerated() {
                let alone = directory.appendingPathComponent("\(url.pathExtension)-alone-\(index).jpg")
                let single = try await Thumbnailer().thumbnail(of: url, at: request.time, width: request.width, to: alone)
                #expect(single.times == results[index].times && single.width == results[index].width)
                #expect(try Data(contentsOf: alone) == Data(contentsOf: request.output), "\(url.lastPathComponent) at \(request.time.seconds)")
            }
        }
    }

    /// Pictures in memory (the face sheet's, the analysis's looks at posters) are read the
    /// same way: once through a GOP, each the picture a read of its own time gives.
    @Test func picturesInMemoryOfOneGOPReadItOnce() throws {
        let directory = try Fixtures.scratchDirectory()
        for (url, packets) in try Self.oneGOPClips(in: directory) where url.pathExtension == "mp4" {
            let source = try MediaInfo.probe(url)
            let times = [5.1, 0.4, 7.9, 2.2, 5.1]
            let before = Self.packetsRead(url)
            let pictures = try PictureReader.frames(of: source, at: times, maximumSide: 160)
            #expect(Self.packetsRead(url) - before <= packets)
            for (time, picture) in zip(times, pictures) {
                let alone = try PictureReader.frame(of: source, at: time, maximumSide: 160)
                #expect(alone.pixels == picture.pixels && alone.time == picture.time, "at \(time)")
            }
        }
    }

    /// The analysis looks at its poster twice (a caption at one size, the eyes at another):
    /// the second look reuses the first one's decode.
    @Test func aSecondLookAtTheSameTimeDecodesNothingMore() throws {
        let directory = try Fixtures.scratchDirectory()
        for (url, _) in try Self.oneGOPClips(in: directory) where url.pathExtension == "mp4" {
            let source = try MediaInfo.probe(url)
            var start = Self.packetsRead(url)
            let alone = try PictureReader.frame(of: source, at: 7.5, maximumSide: 160)
            let oneLook = Self.packetsRead(url) - start
            start = Self.packetsRead(url)
            do {
                let session = try PictureSession(source: source)
                let small = try session.picture(at: 7.5, maximumSide: 160)
                let larger = try session.picture(at: 7.5, maximumSide: 240)
                #expect(small.pixels == alone.pixels && small.time == alone.time)
                #expect(small.width == 160 && larger.width == 240 && larger.time == alone.time)
            }
            #expect(Self.packetsRead(url) - start == oneLook, "two looks read \(Self.packetsRead(url) - start), one \(oneLook)")
        }
    }

    /// A reframed compression measures the content on the framing pass's decode, which passes
    /// every burst anyway: the file is read twice (framing, encode), not three times, and each
    /// burst is what a decode of its own measures.
    @Test func aReframedCompressionMeasuresContentOnTheFramingDecode() async throws {
        let directory = try Fixtures.scratchDirectory()
        for (url, packets) in try Self.oneGOPClips(in: directory) {
            let source = try MediaInfo.probe(url)
            var config = Harness.fastConfig(in: directory)
            config.outputURL = directory.appendingPathComponent(url.lastPathComponent + ".landscape.mp4")
            config.contentAwareOptimization = true
            let landscapeStart = Self.packetsRead(url)
            let landscape = try await VideoCompressor().compressVideo(url, config: config)
            let landscapeRead = Self.packetsRead(url) - landscapeStart
            config.reframing = Reframing(aspect: .vertical)
            config.outputURL = directory.appendingPathComponent(url.lastPathComponent + ".vertical.mp4")
            let ranges = try CompressionPlanner(source: source, config: config, reducer: ReduceFrameEvenlySpaced()).keptRanges()
            let bursts = ContentAwareTuning.bursts(over: ranges)

            var start = Self.packetsRead(url)
            let framed = try FramingPass.plannedPath(of: source, ranges: ranges, reframing: Reframing(aspect: .vertical),
                                                     frameRate: 25, bursts: bursts, shouldCancel: { false })
            let framingRead = Self.packetsRead(url) - start
            let measured = try #require(framed.bursts)
            #expect(measured.missing.isEmpty, "\(url.lastPathComponent): \(measured)")
            let alone = try ContentSampler.measure(bursts, source: source, streamIndex: try #require(source.primaryVideoStreamIndex),
                                                   shouldCancel: { false })
            #expect(measured == alone, "\(url.lastPathComponent)")
            #expect(measured.profile.samples == 6)

            start = Self.packetsRead(url)
            let result = try await VideoCompressor().compressVideo(url, config: config)
            let compressRead = Self.packetsRead(url) - start
            #expect(framingRead <= packets + packets / 10, "\(url.lastPathComponent): framing read \(framingRead) of \(packets)")
            // The framing pass reads the file once more than the landscape compression does.
            #expect(compressRead <= landscapeRead + framingRead + 2,
                    "\(url.lastPathComponent): read \(compressRead), landscape \(landscapeRead), framing \(framingRead)")
            #expect(result.analytics.contentAdjustment?.profile == measured.profile, "\(url.lastPathComponent)")
            #expect(landscape.analytics.contentAdjustment?.profile == measured.profile, "\(url.lastPathComponent)")
        }
    }
}
