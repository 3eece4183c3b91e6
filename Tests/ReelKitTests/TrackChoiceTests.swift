import Foundation
import Testing
@testable import ReelKit

/// Audio track choice (`audioTracks`, `--audio-track N|all`) and text subtitles carried as
/// mov_text on the output's timeline. tracks.mp4: English mono "Main", French stereo
/// "Commentary", English mov_text cues at 0.5-1.5, 2-3.5 and 4-5.5 s; subtitles.mkv: the same
/// cues as German SRT.
@Suite(.timeLimit(.minutes(5))) struct TrackChoiceTests {
    struct Cue: Equatable, CustomStringConvertible {
        var start: Double
        var end: Double
        var text: String
        var description: String { String(format: "%.3f-%.3f %@", start, end, text) }
    }

    /// The first subtitle track of `url`, converted to SRT by the ffmpeg CLI and parsed.
    static func cues(_ url: URL) throws -> [Cue] {
        let srt = try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:s:0", "-f", "srt", "-"])
            .replacingOccurrences(of: "\r\n", with: "\n")
        func seconds(_ stamp: Substring) -> Double {
            let parts = stamp.replacingOccurrences(of: ",", with: ".").split(separator: ":").compactMap { Double($0) }
            return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : -1
        }
        return srt.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard lines.count >= 3, let arrow = lines[1].range(of: " --> ") else { return nil }
            let times = lines[1]
            return Cue(start: seconds(times[..<arrow.lowerBound]), end: seconds(times[arrow.upperBound...]),
                       text: lines[2...].filter { !$0.isEmpty }.joined(separator: " "))
        }
    }

    static func expectCues(_ found: [Cue], _ expected: [Cue], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(found.count == expected.count, "\(found)", sourceLocation: sourceLocation)
        for (cue, wanted) in zip(found, expected) {
            #expect(cue.text == wanted.text, sourceLocation: sourceLocation)
            #expect(abs(cue.start - wanted.start) < 0.035 && abs(cue.end - wanted.end) < 0.035,
                    "\(cue) should be \(wanted)", sourceLocation: sourceLocation)
        }
    }

    static let sourceCues = [
        Cue(start: 0.5, end: 1.5, text: "First cue"), Cue(start: 2, end: 3.5, text: "Second cue"),
        Cue(start: 4, end: 5.5, text: "Third cue on two lines"),
    ]

    @Test func byDefaultTheMainAudioAndTheSubtitlesAreKept() async throws {
        let (result, output, _) = try await Harness.compress("tracks.mp4")
        #expect(output.streams.map(\.kind) == [.video, .audio, .subtitle])
        #expect(output.audioStreams.first?.language == "eng")
        #expect(output.audioStreams.first?.audio?.channels == 1)
        #expect(output.streams.last?.codecName == "mov_text")
        #expect(output.streams.last?.language == "eng")
        Self.expectCues(try Self.cues(result.url), Self.sourceCues)
        let dropped = result.analytics.droppedTracks
        #expect(dropped.map(\.index) == [2])
        #expect(dropped.first?.reason.contains("--audio-track") == true)
    }

    @Test func allTracksKeepTheirLanguagesNamesAndSound() async throws {
        let (result, output, _) = try await Harness.compress("tracks.mp4") {
            $0.audioTracks = .all
            $0.trimStartTime = MediaTime(seconds: 1, timescale: 1000)
            $0.trimEndTime = MediaTime(seconds: 5, timescale: 1000)
        }
        let audio = output.audioStreams
        #expect(audio.map(\.language) == ["eng", "fra"])
        #expect(audio.map(\.handlerName) == ["Main", "Commentary"])
        #expect(audio.map { $0.audio?.channels } == [1, 2])
        for track in audio { #expect(abs((track.duration ?? 0) - 4) < 0.06, "\(track.duration ?? 0)") }
        #expect(result.analytics.droppedTracks.isEmpty)
        // Cues move with the trim and are cut at its edges.
        Self.expectCues(try Self.cues(result.url), [
            Cue(start: 0, end: 0.5, text: "First cue"), Cue(start: 1, end: 2.5, text: "Second cue"),
            Cue(start: 3, end: 4, text: "Third cue on two lines"),
        ])
    }

    @Test(arguments: [false, true])
    func oneTrackByNumber(copying: Bool) async throws {
        let (result, output, _) = try await Harness.compress("tracks.mp4") {
            $0.audioTracks = .number(2)
            $0.streamCopy = copying
        }
        #expect(output.audioStreams.map(\.language) == ["fra"])
        #expect(output.audioStreams.first?.audio?.channels == 2)
        #expect(output.streams.filter { $0.kind == .subtitle }.count == 1)
        Self.expectCues(try Self.cues(result.url), Self.sourceCues)
        #expect(result.analytics.droppedTracks.map(\.index) == [1])
    }

    @Test func aTrackThatDoesNotExistIsRefusedNamingTheFile() async throws {
        let error = await Harness.reelError {
            _ = try await Harness.compress("tracks.mp4") { $0.audioTracks = .number(3) }
        }
        guard case .invalidConfiguration(let reason, let file) = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("no audio track 3") && reason.contains("2 audio tracks"), "\(reason)")
        #expect(file?.lastPathComponent == "tracks.mp4")
    }

    @Test func srtInMatroskaBecomesMovTextOnTheReelsTimeline() async throws {
        let ranges = [(0.2, 1.0), (3.8, 6.0)].map {
            TimeRange(start: MediaTime(seconds: $0.0, timescale: 1000), end: MediaTime(seconds: $0.1, timescale: 1000))
        }
        let (result, output, _) = try await Harness.compress("subtitles.mkv") { $0.trim = .ranges(ranges) }
        let subtitle = try #require(output.streams.first { $0.kind == .subtitle })
        #expect(subtitle.codecName == "mov_text")
        #expect(subtitle.language == "ger")
        // The Matroska muxer moved every stream 21 ms later (the cues sit at 0.521 and 4.021 s
        // in the file), and the ranges land on the 25 fps grid of the video, which starts at
        // 0.021 s: 0.181-0.981 and 3.781-5.981.
        let kept = result.analytics.keptRanges
        let first = try #require(kept.first), second = try #require(kept.last)
        #expect(abs(first.start.seconds - 0.181) < 0.002 && abs(second.start.seconds - 3.781) < 0.002, "\(kept)")
        let joint = (first.end - first.start).seconds
        Self.expectCues(try Self.cues(result.url), [
            Cue(start: 0.521 - first.start.seconds, end: joint, text: "First cue"),
            Cue(start: joint + 4.021 - second.start.seconds, end: joint + 5.521 - second.start.seconds,
                text: "Third cue on two lines"),
        ])
    }

    @Test func subtitlesCanBeLeftOut() async throws {
        let (result, output, _) = try await Harness.compress("tracks.mp4") { $0.keepsSubtitles = false }
        #expect(output.streams.map(\.kind) == [.video, .audio])
        #expect(result.analytics.droppedTracks.contains { $0.role == .subtitle && $0.reason.contains("keepsSubtitles") })
    }
}
