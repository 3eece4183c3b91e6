import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia

/// cinematic.mov has an iPhone Cinematic video's track layout: the picture (#0), sound (#1), a
/// disparity map as a second video track (#2, a bright disc moving right 40 px/s from x=80) and
/// a QuickTime timed-metadata track (#3, `mebx`, the focus disparity and rectangle per frame).
/// FFmpeg's own MOV muxer writes the metadata track without its sample description.
@Suite(.timeLimit(.minutes(5))) struct CinematicTracksTests {
    /// ffprobe's MD5 of each packet of `stream`, with its time.
    static func packets(_ url: URL, stream: Int) throws -> [(time: Double, hash: String)] {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "\(stream)", "-show_data_hash", "MD5",
                                              "-show_entries", "packet=pts_time,data_hash"])
        return (json["packets"] as? [[String: Any]] ?? []).compactMap { packet in
            guard let time = (packet["pts_time"] as? String).flatMap(Double.init), let hash = packet["data_hash"] as? String
            else { return nil }
            return (time, hash)
        }
    }

    /// The columns of row `y` brighter than mid-grey in a picture, and its largest colour spread.
    static func brightColumns(width: Int, pixels: [UInt8], y: Int) -> (first: Int, last: Int, spread: Int) {
        let row = (0..<width).map { x in Array(pixels[(y * width + x) * 3..<(y * width + x) * 3 + 3]) }
        let bright = row.indices.filter { row[$0][0] > 128 }
        let spread = row.map { Int($0.max() ?? 0) - Int($0.min() ?? 0) }.max() ?? 0
        return (bright.first ?? -1, bright.last ?? -1, spread)
    }

    @Test func aLosslessCutToMOVKeepsTheDisparityTrackAndTheTimedMetadata() async throws {
        let source = try Fixtures.clip("cinematic.mov")
        let (result, output, _) = try await Harness.compress("cinematic.mov") { config in
            config.streamCopy = true
            config.fileType = .mov
            config.trim = .ranges([TimeRange(start: MediaTime(value: 1, timescale: 1), end: MediaTime(value: 3, timescale: 1))])
        }
        #expect(output.streams.map(\.kind) == [.video, .audio, .video, .data], "\(output.streams)")
        #expect(output.streams.map(\.codecName) == ["hevc", "aac", "hevc", "mebx"])
        #expect(output.streams[2].video.map { [$0.width, $0.height] } == [320, 180])
        #expect(result.analytics.droppedTracks.isEmpty, "\(result.analytics.droppedTracks)")

        // Every metadata sample of the two seconds, unchanged and on the cut's clock.
        let kept = try Self.packets(result.url, stream: 3), original = try Self.packets(source, stream: 3)
        #expect(kept.count == 60, "\(kept.count) samples")
        for (index, sample) in kept.enumerated() {
            let match = original.first { abs($0.time - (sample.time + 1)) < 0.001 }
            #expect(abs(sample.time - Double(index) / 30) < 0.001 && match?.hash == sample.hash, "sample \(index) at \(sample.time)")
        }
        // Its sample description (the key table naming each item) and its reference to the picture.
        let bytes = try Data(contentsOf: result.url)
        #expect(bytes.range(of: Data("keydmdtaorg.reel.fixture.focus-disparity".utf8)) != nil, "the key table")
        #expect(bytes.range(of: Data("cdsc".utf8) + Data([0, 0, 0, 1])) != nil, "describes track 1")
        // The disparity track: not shown by players (not the default), its pictures on the cut's clock.
        let disposition = try Fixtures.ffprobe(result.url, ["-select_streams", "2", "-show_entries", "stream_disposition=default"])
        let flags = ((disposition["streams"] as? [[String: Any]])?.first?["disposition"] as? [String: Any])?["default"] as? Int
        #expect(flags == 0)
        let cut = try await Thumbnailer(analyzer: VideoAnalyzer()).image(of: result.url, at: MediaTime(value: 1, timescale: 2), stream: 2)
        let disc = Self.brightColumns(width: cut.width, pixels: cut.pixels, y: 90)
        // At 1.5 s of the source the disc's centre is at 140: 100-180.
        #expect(abs(disc.first - 100) <= 3 && abs(disc.last - 180) <= 3, "\(disc)")
        // The file starts with its movie box (fast start), like every other output.
        #expect(bytes.range(of: Data("moov".utf8))?.lowerBound ?? .max < bytes.range(of: Data("mdat".utf8))?.lowerBound ?? 0)
    }

    /// MP4 and re-encodes leave both out, saying where they are kept.
    @Test func otherOutputsSayWhereTheTracksAreKept() async throws {
        let (result, output, _) = try await Harness.compress("cinematic.mov") { $0.streamCopy = true }
        #expect(output.streams.map(\.kind) == [.video, .audio])
        let reasons = result.analytics.droppedTracks.map(\.reason)
        #expect(reasons.count == 2 && reasons.allSatisfy { $0.contains("lossless cut to .mov") }, "\(reasons)")
    }

    /// A picture of the disparity track is the map in grey; a data stream is refused by name.
    @Test func aThumbnailTakesThePictureOfAnyVideoStream() async throws {
        let source = try Fixtures.clip("cinematic.mov"), directory = try Fixtures.scratchDirectory()
        let thumbnailer = Thumbnailer(analyzer: VideoAnalyzer())
        let image = directory.appendingPathComponent("disparity.png")
        let written = try await thumbnailer.thumbnail(of: source, at: MediaTime(value: 5, timescale: 2), to: image, stream: 2)
        #expect(written.width == 320 && written.height == 180)
        let picture = try PictureReader.image(at: image, maximumSide: 320)
        let disc = Self.brightColumns(width: picture.width, pixels: picture.pixels, y: 90)
        // At 2.5 s the disc's centre is at 180: 140-220, grey (no colour).
        #expect(abs(disc.first - 140) <= 3 && abs(disc.last - 220) <= 3 && disc.spread <= 4, "\(disc)")
        let error = await Harness.reelError {
            _ = try await thumbnailer.thumbnail(of: source, at: .zero, to: directory.appendingPathComponent("data.png"), stream: 3)
        }
        guard case .invalidConfiguration(let message, _) = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(message.contains("stream 3 is not a video stream") && message.contains("#0, #2"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data.png").path))
    }
}
