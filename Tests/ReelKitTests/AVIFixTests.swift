import Foundation
import Testing
import ReelAnalysis
@testable import ReelCompression
@testable import ReelMedia
@testable import ReelSupport

/// AVI sources: lossless copies of MPEG-4 Part 2 with B frames (packed or not), the check that
/// a copy decodes, and cuts of AVI files whose AC-3 chunks do not start on frame boundaries.
@Suite(.timeLimit(.minutes(5))) struct AVIFixTests {
    /// The MD5 of every decoded picture of the first video stream, in the order FFmpeg's decoder
    /// outputs them (display order).
    static func pictureHashes(_ url: URL) throws -> [String] {
        let text = try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v:0", "-f", "framemd5", "-"])
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Presentation times (seconds) of the decoded video frames, in output order.
    static func frameTimes(_ url: URL) throws -> [Double] {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "v:0", "-show_entries", "frame=pts_time"])
        return (json["frames"] as? [[String: Any]] ?? []).compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
    }

    /// Payload sizes of the video packets.
    static func videoPacketSizes(_ url: URL) throws -> [Int] {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "v:0", "-show_entries", "packet=size"])
        return (json["packets"] as? [[String: Any]] ?? []).compactMap { ($0["size"] as? String).flatMap(Int.init) }
    }

    /// Presentation timestamps (in the stream's time base) of the audio packets, in file order.
    static func audioPacketTimestamps(_ url: URL) throws -> [Int] {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "a:0", "-show_entries", "packet=pts"])
        return (json["packets"] as? [[String: Any]] ?? []).compactMap { $0["pts"] as? Int }
    }

    @Test func copiesPackedBFramesUnpackedAndInDisplayOrder() async throws {
        let source = try Fixtures.clip("packed_bframes.avi")
        let (result, output, _) = try await Harness.compress("packed_bframes.avi") { $0.streamCopy = true }
        #expect(result.analytics.streamCopied)
        #expect(output.primaryVideo?.video?.width == 320 && output.primaryVideo?.video?.height == 240)
        #expect(output.primaryAudio != nil)
        // Every picture the source decodes to comes out of the copy, the same and in order.
        let expected = try Self.pictureHashes(source)
        #expect(expected.count == 98)
        #expect(try Self.pictureHashes(result.url) == expected)
        // Unpacked: one frame per packet, no N-VOP placeholders, user data no longer "packed".
        let sizes = try Self.videoPacketSizes(result.url)
        #expect(sizes.count == expected.count)
        #expect(sizes.allSatisfy { $0 > 19 })
        #expect(try Data(contentsOf: result.url).range(of: Data("DivX503b1393p\0".utf8)) == nil)
        // The frames carry their display times: they only go up.
        let times = try Self.frameTimes(result.url)
        #expect(times.count == expected.count)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// Re-encoding keeps every picture, the last included (Megamind.avi lost its last frame,
    /// 270 -> 269, to the decoder's delay).
    @Test(arguments: ["packed_bframes.avi", "mpeg4_bframes.avi"])
    func reencodingKeepsTheLastPicture(clip: String) async throws {
        func decodedFrames(_ url: URL) throws -> Int {
            let json = try Fixtures.ffprobe(url, ["-select_streams", "v:0", "-show_entries", "frame=key_frame"])
            return (json["frames"] as? [[String: Any]] ?? []).count
        }
        let source = try decodedFrames(try Fixtures.clip(clip))
        let (result, _, _) = try await Harness.compress(clip)
        #expect(source > 0)
        #expect(try decodedFrames(result.url) == source)
        #expect(result.analytics.compressedFrameCount == source)
    }

    /// Re-encoded pictures keep their AVI slots: the first at 0, the last ending at the
    /// container's duration (the decoder alone puts them one to three slots late behind B frames:
    /// Megamind.avi's copy ran 0.041-11.303 s, packed_bframes.avi's started at 0.12 s).
    @Test(arguments: ["packed_bframes.avi", "mpeg4_bframes.avi"])
    func reencodedPicturesKeepTheirSlots(clip: String) async throws {
        let source = try MediaInfo.probe(try Fixtures.clip(clip))
        let (result, _, _) = try await Harness.compress(clip)
        let times = try Self.frameTimes(result.url)
        let first = try #require(times.first), last = try #require(times.last)
        let slot = 1 / (source.primaryVideo?.video?.frameRate ?? 25)
        #expect(abs(first) < 1e-3, "first picture at \(first) s")
        #expect(abs(last + slot - source.duration) < 0.07, "last picture at \(last) s of \(source.duration) s")
    }

    /// The analysis ends where the pictures end: its last segment at the video stream's duration,
    /// and a range cut from it compresses to the last picture. A range a couple of frames past
    /// the end is still taken (to the end); more is refused.
    @Test func theAnalysisLastSegmentEndsWithTheLastPicture() async throws {
        let url = try Fixtures.clip("mpeg4_bframes.avi")
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: url))
        let last = try #require(analysis.segments.last).timeRange
        let source = try MediaInfo.probe(url)
        let duration = source.duration
        let pictures = try #require(source.primaryVideo?.duration)
        #expect(abs(last.end.seconds - pictures) < 0.002, "\(last.end.seconds) s of \(pictures) s of pictures")
        let (fromAnalysis, _, _) = try await Harness.compress("mpeg4_bframes.avi") { $0.trim = .ranges([last]) }
        let pastEnd = TimeRange(start: last.start, end: MediaTime(seconds: duration + 0.05, timescale: 1000))
        let (toTheEnd, _, _) = try await Harness.compress("mpeg4_bframes.avi") { $0.trim = .ranges([pastEnd]) }
        #expect(fromAnalysis.analytics.compressedFrameCount > 0)
        #expect(fromAnalysis.analytics.compressedFrameCount == toTheEnd.analytics.compressedFrameCount)
        let beyond = TimeRange(start: last.start, end: MediaTime(seconds: duration + 0.2, timescale: 1000))
        let error = await Harness.reelError { _ = try await Harness.compress("mpeg4_bframes.avi") { $0.trim = .ranges([beyond]) } }
        guard case .invalidRanges(let message) = error else {
            Issue.record("expected invalidRanges, got \(String(describing: error))")
            return
        }
        #expect(message.contains("beyond the end"))
    }

    /// An AVI's sound frames are counted as the frames a decoder gets (ffprobe's packet count
    /// after parsing), not the header's length in its own units (Megamind.avi's AC-3 showed
    /// "270270 frames" for 352) nor its chunks (260 there, 151 in ac3_chunks.avi for 188).
    @Test func anAVIsSoundFramesAreItsCodecFrames() async throws {
        let clips = [try Fixtures.clip("ac3_chunks.avi"), try await offPool { try FaceFixtures.footage("Megamind.avi") }]
        for clip in clips {
            let json = try Fixtures.ffprobe(clip, ["-select_streams", "a:0", "-count_packets", "-show_entries", "stream=nb_read_packets"])
            let packets = try #require((json["streams"] as? [[String: Any]])?.first?["nb_read_packets"] as? String).flatMap(Int64.init)
            let probed = try MediaInfo.probe(clip).primaryAudio?.frameCount
            #expect(probed == packets, "\(clip.lastPathComponent): \(String(describing: probed)) for \(String(describing: packets))")
        }
    }

    @Test func copiesUnpackedBFramesWithTheirDisplayTimes() async throws {
        let source = try Fixtures.clip("mpeg4_bframes.avi")
        let (result, output, _) = try await Harness.compress("mpeg4_bframes.avi") { $0.streamCopy = true }
        #expect(output.primaryVideo?.video?.width == 320 && output.primaryVideo?.video?.height == 240)
        let expected = try Self.pictureHashes(source)
        #expect(expected.count == 100)
        #expect(try Self.pictureHashes(result.url) == expected)
        // Frame k is shown at k / 25 s, as the source was encoded.
        let times = try Self.frameTimes(result.url)
        #expect(times.count == 100)
        #expect(times.enumerated().allSatisfy { abs($0.element - Double($0.offset) * 0.04) < 1e-3 })
    }

    @Test func copiesRangesOfPackedBFrames() async throws {
        let source = try Fixtures.clip("packed_bframes.avi")
        let (result, _, _) = try await Harness.compress("packed_bframes.avi") {
            $0.streamCopy = true
            $0.trim = .ranges([TimeRange(start: MediaTime(value: 1100, timescale: 1000), end: MediaTime(value: 2500, timescale: 1000))])
        }
        // Keyframes at 1.08 s (picture 25) and 2.08 s (picture 50) and 3.08 s (picture 75):
        // the copy holds pictures 25 to 74, unchanged.
        #expect(result.analytics.keptRanges.count == 1)
        let all = try Self.pictureHashes(source)
        #expect(try Self.pictureHashes(result.url) == Array(all[25..<75]))
    }

    @Test func copyThatDecodesToNothingFailsAndLeavesNothing() async throws {
        let source = try Fixtures.clip("truncated_media.mp4")
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.streamCopy = true
        let error = await Harness.reelError {
            _ = try await VideoCompressor().compressVideo(source, config: config)
        }
        guard case .streamCopyFailed(let url, let reason) = error else {
            Issue.record("expected streamCopyFailed, got \(String(describing: error))")
            return
        }
        #expect(url.lastPathComponent == "truncated_media.mp4")
        #expect(reason.contains("no frame"))
        #expect(Fixtures.contents(of: directory).isEmpty)
    }

    /// A range starting on or just after the keyframe at 3 s: the seek lands on an AC-3 chunk
    /// that begins inside a frame, and the first whole frames come out 24 ms late (the muxer
    /// used to refuse the audio that then went back in time).
    @Test(arguments: [3000, 3010, 3020, 3040])
    func transcodesAVIRangesStartingJustAfterAKeyframe(startMilliseconds: Int) async throws {
        let start = MediaTime(value: Int64(startMilliseconds), timescale: 1000)
        let end = MediaTime(value: Int64(startMilliseconds + 1200), timescale: 1000)
        let (result, output, _) = try await Harness.compress("ac3_chunks.avi") {
            $0.trim = .ranges([TimeRange(start: MediaTime(value: 1, timescale: 2), end: MediaTime(value: 3, timescale: 2)),
                               TimeRange(start: start, end: end)])
        }
        // The sound never goes back in time, and lasts as long as the ranges.
        let stamps = try Self.audioPacketTimestamps(result.url)
        #expect(stamps.count > 90)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        let audio = try #require(output.primaryAudio?.duration)
        #expect(abs(audio - 2.2) < 0.06)
    }

    @Test func continuityTrimsOverlapsAndKeepsGaps() {
        var clock = AudioContinuity()
        #expect(clock.place(stamp: 1000, count: 1536, rate: 48000) == .keep(start: 1000, droppingLeading: 0))
        // Late first frames, then the container's right time: the overlap is cut off.
        #expect(clock.place(stamp: 2536 - 1180, count: 1536, rate: 48000) == .keep(start: 2536, droppingLeading: 1180))
        // Rounding (under 2 ms) is closed up; a frame without a time continues the clock.
        #expect(clock.place(stamp: 2892 + 40, count: 1536, rate: 48000) == .keep(start: 2892, droppingLeading: 0))
        #expect(clock.place(stamp: nil, count: 1536, rate: 48000) == .keep(start: 4428, droppingLeading: 0))
        // A frame entirely behind the clock is dropped; a gap is kept.
        #expect(clock.place(stamp: 4000, count: 1024, rate: 48000) == .drop)
        #expect(clock.place(stamp: 9000, count: 1536, rate: 48000) == .keep(start: 9000, droppingLeading: 0))
        clock.reset()
        #expect(clock.place(stamp: 100, count: 1536, rate: 48000) == .keep(start: 100, droppingLeading: 0))
        // The sound changes rate: the clock goes on in the new rate's samples (1636 at 48 kHz is
        // 1503 at 44.1 kHz), so a frame overlapping the last one is still cut.
        #expect(clock.place(stamp: 1403, count: 1024, rate: 44100) == .keep(start: 1503, droppingLeading: 100))
    }
}
