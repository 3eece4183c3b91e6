import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// Cutting dead air from real speech with pauses (`talk.mp4`: alsa-utils' recorded voice between
/// silences of known lengths), read back from the files.
@Suite(.timeLimit(.minutes(5))) struct DeadAirTests {
    /// Where talk.mp4's speech is (Fixtures/make-fixtures.sh).
    static let speech = [(1.5, 2.785), (4.785, 6.015), (6.315, 7.66), (8.86, 10.105), (12.605, 13.845)]
    /// The speech widened by the default 0.2 s margins, the 0.3 s pause between the second and
    /// third phrases kept (its gap is under the 0.5 s shortest pause).
    static let expectedKept = [(1.3, 2.985), (4.585, 7.86), (8.66, 10.305), (12.405, 14.045)]

    static func seconds(_ ranges: [TimeRange]) -> [(Double, Double)] { ranges.map { ($0.start.seconds, $0.end.seconds) } }

    static func expectClose(_ found: [TimeRange], _ expected: [(Double, Double)], within tolerance: Double,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let pairs = seconds(found)
        #expect(pairs.count == expected.count, "found \(pairs), expected \(expected)", sourceLocation: sourceLocation)
        for (range, wanted) in zip(pairs, expected) {
            #expect(abs(range.0 - wanted.0) <= tolerance && abs(range.1 - wanted.1) <= tolerance,
                    "found \(range), expected \(wanted)", sourceLocation: sourceLocation)
        }
    }

    static func talk() async throws -> MediaInfo {
        let url = try await offPool { try Fixtures.clip("talk.mp4") }
        return try await VideoCompressor().probe(url)
    }

    @Test func theKeptPartsAreTheSpeechWithItsMargins() async throws {
        let report = try await DeadAirDetector.report(of: try await Self.talk(), options: DeadAirOptions())
        Self.expectClose(report.kept, Self.expectedKept, within: 0.1)
        // Every pause but the short one goes, the leading and trailing silence included.
        Self.expectClose(report.cuts, [(0, 1.3), (2.985, 4.585), (7.86, 8.66), (10.305, 12.405), (14.045, 15)], within: 0.1)
        #expect(abs(report.keptDuration + report.cutDuration - 15) < 1e-6)
        #expect(abs(report.searchedDuration - 15) < 1e-6)
        // 4% of a -6 dBFS peak.
        #expect(abs((report.silenceLevelDecibels ?? 0) - (-34)) < 1)
    }

    @Test func widerMarginsAndLongerPausesKeepMore() async throws {
        let source = try await Self.talk()
        var options = DeadAirOptions()
        options.marginBefore = 0.1
        options.marginAfter = 0.4
        options.minimumPause = 1.0
        let report = try await DeadAirDetector.report(of: source, options: options)
        // The 1.2 s pause leaves a 0.7 s gap after the margins, the end 0.755 s: under a second,
        // so they stay.
        Self.expectClose(report.kept, [(1.4, 3.185), (4.685, 10.505), (12.505, 15)], within: 0.1)
        options.silenceLevel = .decibels(-12)
        let louder = try await DeadAirDetector.report(of: source, options: options)
        #expect(louder.keptDuration < report.keptDuration - 1, "\(louder.kept) against \(report.kept)")
    }

    @Test func theCompressionEncodesTheKeptPartsJoinedInSync() async throws {
        let (result, output, _) = try await Harness.compress("talk.mp4") { $0.trim = .cuttingDeadAir() }
        let report = try #require(result.deadAir)
        Self.expectClose(result.analytics.keptRanges, Self.expectedKept, within: 0.1)
        let kept = result.analytics.keptRanges.map { ($0.end - $0.start).seconds }.reduce(0, +)
        #expect(abs(kept - report.keptDuration) < 4.0 / 30)
        let video = try #require(output.primaryVideo?.duration)
        let audio = try #require(output.primaryAudio?.duration)
        #expect(abs(video - kept) <= 1.0 / 30 + 1e-3, "video \(video) s, kept \(kept) s")
        #expect(abs(audio - kept) < 0.05, "audio \(audio) s, kept \(kept) s")
        // ffprobe agrees on the file's length.
        let probed = try await offPool { () throws -> Double? in
            let format = try Fixtures.ffprobe(result.url, ["-show_entries", "format=duration"])
            return ((format["format"] as? [String: Any])?["duration"] as? String).flatMap { Double($0) }
        }
        #expect(abs((probed ?? 0) - kept) < 0.05, "ffprobe: \(String(describing: probed)) s")
        // Each piece's speech starts one margin into it on the output's timeline: the sound
        // was cut where the picture was.
        var quiet = DeadAirOptions()
        quiet.marginBefore = 0
        quiet.marginAfter = 0
        quiet.minimumPause = 0.05
        let heard = try await DeadAirDetector.report(of: output, options: quiet).kept.map(\.start.seconds)
        var offset = 0.0
        for (piece, range) in zip(Self.expectedKept, result.analytics.keptRanges) {
            let onset = offset + (piece.0 + 0.2 - range.start.seconds)
            #expect(heard.contains { abs($0 - onset) < 0.06 }, "no speech starts near \(onset) s in the output: \(heard)")
            offset += (range.end - range.start).seconds
        }
    }

    @Test func soundAndPictureStayTogetherAcrossTwentyThreeCuts() async throws {
        // sync.mp4: a white frame and a 50 ms beep together at k + 0.5 s, black and silent between.
        var options = DeadAirOptions()
        options.minimumSound = 0.03
        options.minimumPause = 0.25
        let (result, _, _) = try await Harness.compress("sync.mp4") { $0.trim = .cuttingDeadAir(options) }
        #expect(result.analytics.keptRanges.count == 24)
        let events = try await offPool { try SyncProbe.events(in: result.url) }
        #expect(events.flashes.count == 24, "flashes \(events.flashes)")
        #expect(events.beeps.count == 24, "beeps \(events.beeps)")
        var offset = 0.0
        for (index, (flash, beep)) in zip(events.flashes, events.beeps).enumerated() {
            let range = result.analytics.keptRanges[index]
            let expected = offset + 0.5 + Double(index) - range.start.seconds
            #expect(abs(flash - expected) < 0.5 / 30, "flash \(index) at \(flash), expected \(expected)")
            #expect(abs(beep - flash) < 1.0 / 30, "piece \(index): beep at \(beep), flash at \(flash)")
            offset += (range.end - range.start).seconds
        }
    }

    @Test func aSourceWithoutPausesIsLeftWhole() async throws {
        // cfr_audio.mp4: two tones that never stop.
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") { $0.trim = .cuttingDeadAir() }
        let report = try #require(result.deadAir)
        #expect(report.cuts.isEmpty)
        Self.expectClose(report.kept, [(0, 3)], within: 1e-6)
        #expect(abs((output.primaryVideo?.duration ?? 0) - 3) < 1e-3)
        #expect(output.primaryVideo?.frameCount == 90)
    }

    @Test func cutStillTakesOnlyThePauseOverAStillPicture() async throws {
        var options = DeadAirOptions()
        options.requiresStillPicture = true
        let report = try await DeadAirDetector.report(of: try await Self.talk(), options: options)
        // The picture stands still over [10.1, 12.633): only the 2.5 s pause inside it goes.
        Self.expectClose(report.cuts, [(10.305, 12.405)], within: 0.1)
        Self.expectClose(report.kept, [(0, 10.305), (12.405, 15)], within: 0.1)
    }

    /// caret.mp4: a still editor whose caret blinks (on 0.6 s, off 0.6 s) between two stretches
    /// of moving picture, all silent. The caret's first blink after the picture stops (at 3.6 s)
    /// is new; from then on the blinking is a picture seen a moment ago, so the pause over
    /// [3, 9) is cut to the margin before the picture moves again. Measured against the sample
    /// before alone, every blink counted and 1.4 s were cut in two pieces.
    @Test func aBlinkingCaretDoesNotKeepAStillPause() async throws {
        let source = try await VideoCompressor().probe(try await offPool { try Fixtures.clip("caret.mp4") })
        var options = DeadAirOptions()
        options.requiresStillPicture = true
        let report = try await DeadAirDetector.report(of: source, options: options)
        #expect(report.cuts.count == 1, "\(report.cuts)")
        let cut = try #require(report.cuts.first)
        #expect(cut.start.seconds >= 3.1 && cut.start.seconds <= 3.9, "\(report.cuts)")
        #expect(abs(cut.end.seconds - 8.8) <= 0.1, "\(report.cuts)")
    }

    @Test func withoutSoundOnlyAStillPictureIsCut() async throws {
        let source = try await VideoCompressor().probe(try await offPool { try Fixtures.clip("no_audio.mp4") })
        let error = await Harness.reelError { _ = try await DeadAirDetector.report(of: source, options: DeadAirOptions()) }
        guard case .invalidConfiguration(let reason, let file)? = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("no sound") && file == source.url)
        // testsrc2 moves all the time: nothing is still, nothing is cut.
        var options = DeadAirOptions()
        options.requiresStillPicture = true
        let report = try await DeadAirDetector.report(of: source, options: options)
        #expect(report.cuts.isEmpty && report.kept.count == 1, "\(report)")
    }

    @Test func theSearchedPartsLimitTheCut() async throws {
        var options = DeadAirOptions()
        options.within = [TimeRange(start: MediaTime(seconds: 4, timescale: 1000), end: MediaTime(seconds: 11, timescale: 1000)),
                          TimeRange(start: MediaTime(seconds: 0.5, timescale: 1000), end: MediaTime(seconds: 99, timescale: 1000))]
        let report = try await DeadAirDetector.report(of: try await Self.talk(), options: options)
        // In the given order; the second part ends at the source's end.
        Self.expectClose(report.searched, [(4, 11), (0.5, 15)], within: 1e-6)
        Self.expectClose(report.kept, [(4.585, 7.86), (8.66, 10.305), (1.3, 2.985), (4.585, 7.86), (8.66, 10.305), (12.405, 14.045)],
                         within: 0.1)
    }

    @Test func aSilenceLevelAboveTheSoundKeepsNothingAndSaysSo() async throws {
        let source = try await Self.talk()
        var options = DeadAirOptions()
        options.silenceLevel = .decibels(-1)
        let error = await Harness.reelError {
            _ = try await DeadAirCut(options: options).plan(of: source) { _ in }
        }
        guard case .nothingToKeep(let file, let reason)? = error else {
            Issue.record("expected nothingToKeep, got \(String(describing: error))")
            return
        }
        #expect(file.lastPathComponent == "talk.mp4")
        #expect(reason.contains("no sound above -1 dB"), "\(reason)")
    }
}
