import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia
@testable import ReelSupport

/// Lossless cuts: packets copied byte for byte, ranges widened to whole keyframe groups.
@Suite(.timeLimit(.minutes(5))) struct StreamCopyTests {
    /// MD5 of each video packet's payload and its presentation time, from ffprobe.
    static func videoPackets(_ url: URL) throws -> [(time: Double, hash: String, key: Bool)] {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "v:0", "-show_data_hash", "MD5",
                                              "-show_entries", "packet=pts_time,data_hash,flags"])
        return (json["packets"] as? [[String: Any]] ?? []).compactMap { packet in
            guard let time = (packet["pts_time"] as? String).flatMap(Double.init),
                  let hash = packet["data_hash"] as? String else { return nil }
            return (time, hash, (packet["flags"] as? String)?.hasPrefix("K") == true)
        }
    }

    @Test func copiesWholeKeyframeGroupsByteForByte() async throws {
        let source = try Fixtures.clip("cfr_audio.mp4")  // keyframes at 0, 1 and 2 s
        let requested = [TimeRange(start: MediaTime(value: 1500, timescale: 1000), end: MediaTime(value: 2200, timescale: 1000)),
                         TimeRange(start: MediaTime(value: 300, timescale: 1000), end: MediaTime(value: 800, timescale: 1000))]
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.trim = .ranges(requested)
            $0.streamCopy = true
        }
        let analytics = result.analytics
        #expect(analytics.streamCopied)
        #expect(analytics.encoding == nil)
        #expect(analytics.requestedRanges == requested)
        #expect(analytics.keptRanges.map { [$0.start.seconds, $0.end.seconds] } == [[1, 3], [0, 1]])
        #expect(abs((output.primaryVideo?.duration ?? 0) - 3) < 1e-3)
        #expect(output.primaryAudio != nil)
        // Every output packet is a source packet of the kept groups, unchanged, in order.
        let sourcePackets = try Self.videoPackets(source)
        let expected = sourcePackets.filter { $0.time >= 1 - 1e-6 }.sorted { $0.time < $1.time }.map(\.hash)
            + sourcePackets.filter { $0.time < 1 - 1e-6 }.sorted { $0.time < $1.time }.map(\.hash)
        let copied = try Self.videoPackets(result.url).sorted { $0.time < $1.time }.map(\.hash)
        #expect(copied == expected)
    }

    @Test func keepsRotationAndRefusesBadRanges() async throws {
        let (_, output, _) = try await Harness.compress("rotated90.mov") {
            $0.streamCopy = true
            $0.trim = .ranges([TimeRange(start: MediaTime(value: 1, timescale: 2), end: MediaTime(value: 1, timescale: 1))])
        }
        #expect(output.primaryVideo?.video?.rotation == 90)
        let error = await Harness.reelError {
            _ = try await Harness.compress("cfr_audio.mp4") {
                $0.streamCopy = true
                $0.trim = .ranges([TimeRange(start: MediaTime(value: 2, timescale: 1), end: MediaTime(value: 9, timescale: 1))])
            }
        }
        guard case .invalidRanges = error else {
            Issue.record("expected invalidRanges, got \(String(describing: error))")
            return
        }
    }

    /// MPEG-TS has no index: a seek to the first keyframe lands after it. The copy then reads
    /// from the start of the file, so it keeps every frame (story.ts: 720, keyframes every 2 s;
    /// onekey.ts: 75, one keyframe).
    @Test(arguments: [("story.ts", 720), ("onekey.ts", 75)])
    func copiesTransportStreamsFromTheirFirstKeyframe(clip: String, frames: Int) async throws {
        let (result, _, _) = try await Harness.compress(clip) { $0.streamCopy = true }
        let json = try Fixtures.ffprobe(result.url, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames"])
        let decoded = ((json["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String).flatMap(Int.init)
        #expect(decoded == frames)
        #expect(try Self.videoPackets(result.url).first?.key == true)
    }

    /// A copy keeps the source's codecs, so the container must hold them: before, MS-MPEG4
    /// pictures (vtest.avi's) or PCM sound copied into MP4, and Opus into MOV, failed at the
    /// muxer with "writing failed: Invalid argument". They are refused before any work, naming
    /// the codec and the containers that hold every stream; those copies decode.
    @Test func aCopyIntoAContainerThatCannotHoldTheCodecIsRefusedWithWhereItFits() async throws {
        let directory = try Fixtures.scratchDirectory()
        func make(_ name: String, _ codecs: [String]) throws -> URL {
            let url = directory.appendingPathComponent(name)
            try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=2",
                                                 "-f", "lavfi", "-i", "sine=frequency=440:duration=2"] + codecs + [url.path])
            return url
        }
        let cases: [(source: URL, refused: OutputFileType, codec: String, holds: [OutputFileType])] = [
            (try make("asp.avi", ["-c:v", "msmpeg4", "-c:a", "pcm_s16le"]), .mp4, "msmpeg4v3", [.mkv, .mov]),
            (try make("opus.mkv", ["-c:v", "libx264", "-preset", "ultrafast", "-c:a", "libopus"]), .mov, "opus", [.mp4, .mkv]),
        ]
        for (source, refused, codec, holds) in cases {
            var config = Harness.fastConfig(in: directory)
            config.streamCopy = true
            config.fileType = refused
            config.outputURL = directory.appendingPathComponent("refused-\(source.lastPathComponent).\(refused.rawValue)")
            let error = await Harness.reelError { _ = try await VideoCompressor().compressVideo(source, config: config) }
            guard case .invalidConfiguration(let message, let file) = error else {
                Issue.record("\(source.lastPathComponent) into \(refused): expected invalidConfiguration, got \(String(describing: error))")
                continue
            }
            #expect(file == source)
            #expect(message.contains(codec) && message.contains("copy into \(holds.map(\.rawValue).joined(separator: " or "))"), "\(message)")
            #expect(!FileManager.default.fileExists(atPath: config.outputURL?.path ?? ""))
            for type in holds {
                config.fileType = type
                config.outputURL = directory.appendingPathComponent("copy-\(source.lastPathComponent).\(type.rawValue)")
                let result = try await VideoCompressor().compressVideo(source, config: config)
                let decoded = try Fixtures.run("/bin/sh", ["-c", "ffmpeg -v error -i '\(result.url.path)' -f null - 2>&1; echo done"])
                #expect(decoded.trimmingCharacters(in: .whitespacesAndNewlines) == "done", "\(result.url.lastPathComponent): \(decoded)")
                #expect(try MediaInfo.probe(result.url).streams.count == 2)
            }
        }
    }
}
