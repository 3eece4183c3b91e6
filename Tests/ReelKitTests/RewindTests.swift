import Foundation
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// Going back to a file's first packet works in every container: Matroska, AVI and ASF accept
/// a byte seek to 0 and then read on from where they were, so a range list that returns to the
/// file's start lost that range there.
@Suite struct RewindTests {
    /// A 4 s clip with sound in each container, in the codecs the ffmpeg CLI picks for it.
    static func clips(in directory: URL) throws -> [URL] {
        try ["mkv", "avi", "asf", "flv", "webm", "ts", "mpg", "ogv", "mp4"].map { container in
            let url = directory.appendingPathComponent("clip.\(container)")
            try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=4",
                                                 "-f", "lavfi", "-i", "sine=f=440:d=4", "-g", "25", "-shortest", url.path])
            return url
        }
    }

    @Test func rewindingReadsTheFirstVideoPacketAgain() throws {
        for url in try Self.clips(in: try Fixtures.scratchDirectory()) {
            let source = try MediaInfo.probe(url)
            let video = try #require(source.primaryVideoStreamIndex)
            var input = try InputFile.reopen(source, keeping: [video])
            let packet = try Packet()
            func firstVideoPackets(_ count: Int) throws -> [Int64?] {
                var found: [Int64?] = []
                while found.count < count, try input.read(into: packet) {
                    if packet.streamIndex == video { found.append(packet.presentationTimestamp) }
                    packet.unreference()
                }
                return found
            }
            let first = try firstVideoPackets(3)
            _ = try firstVideoPackets(40)
            try input.rewind()
            #expect(try firstVideoPackets(3) == first, "\(url.lastPathComponent)")
            // Before anything is read (a WebM's sound starts 7 ms before its picture).
            input = try InputFile.reopen(source, keeping: [video])
            try input.rewind()
            #expect(try firstVideoPackets(3) == first, "\(url.lastPathComponent), rewound first")
        }
    }

    /// Ranges 2-3.5 s then 0-1 s: the second one used to be lost in Matroska and AVI (the output
    /// lasted 1.5 s).
    @Test func aRangeListReturningToTheStartKeepsEveryRange() async throws {
        let directory = try Fixtures.scratchDirectory()
        for url in try Self.clips(in: directory) where ["mkv", "avi", "asf"].contains(url.pathExtension) {
            var config = Harness.fastConfig(in: directory)
            config.outputURL = directory.appendingPathComponent("ranges-\(url.pathExtension).mp4")
            config.trim = .ranges([TimeRange(start: MediaTime(seconds: 2), end: MediaTime(seconds: 3.5)),
                                   TimeRange(start: .zero, end: MediaTime(seconds: 1))])
            let result = try await VideoCompressor().compressVideo(url, config: config)
            let output = try MediaInfo.probe(result.url)
            #expect(abs(output.duration - 2.5) < 0.1, "\(url.lastPathComponent): \(output.duration) s")
            // The last picture comes from about 1 s into the source.
            let last = try PictureReader.frame(of: output, at: 2.4, maximumSide: 80)
            let start = try PictureReader.frame(of: try MediaInfo.probe(url), at: 0.9, maximumSide: 80)
            let late = try PictureReader.frame(of: try MediaInfo.probe(url), at: 3.4, maximumSide: 80)
            #expect(Self.difference(last.pixels, start.pixels) < Self.difference(last.pixels, late.pixels), "\(url.lastPathComponent)")
        }
    }

    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(max(min(a.count, b.count), 1))
    }
}
