import Foundation
import Synchronization
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// Loudness normalisation, checked with the ffmpeg CLI's own `ebur128`: quiet and loud sources
/// come out within 1 LU of the target with true peaks at most the ceiling; what is measured is
/// the kept sound only; without a target the loudness is the source's.
@Suite(.timeLimit(.minutes(6))) struct LoudnessTests {
    /// Voiced syllables (a 120 Hz voice's harmonics, 3.7 a second) with a half-second pause
    /// every 2.5 s: at 0 dB about -20 LUFS with peaks near -6 dBTP, so its peaks stand 14-15 dB
    /// above its loudness, as speech's do.
    static let speech = "0.4*(0.5*sin(2*PI*120*t)+0.3*sin(2*PI*240*t+1)+0.25*sin(2*PI*360*t+2)+0.15*sin(2*PI*730*t)"
        + "+0.1*sin(2*PI*1450*t+0.5)+0.06*sin(2*PI*2600*t))*pow(sin(PI*3.7*t),2)*lt(mod(t,2.5),2)"

    /// An 8 s, 320x180 clip of the speech-like sound scaled by `gain` dB (float PCM: a loud one
    /// keeps its peaks over full scale, as a hot recording's decoded AAC does); with `second`, the
    /// last 4 s are scaled by that instead.
    static func clip(gain: Double, second: Double? = nil) async throws -> URL {
        try await offPool {
            let url = try Fixtures.scratchDirectory("loudness-clip").appendingPathComponent("speech.mov")
            let level = { (decibels: Double) in pow(10, decibels / 20) }
            let volume = second.map { "volume='if(lt(t,4),\(level(gain)),\(level($0)))':eval=frame" } ?? "volume=\(gain)dB"
            try Fixtures.run("/usr/bin/ffmpeg", [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=15:d=8",
                "-f", "lavfi", "-i", "aevalsrc='\(speech)':s=48000:d=8,asetnsamples=480,\(volume)",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-threads", "2", "-c:a", "pcm_f32le", url.path,
            ])
            return url
        }
    }

    static func compress(_ source: URL, _ configure: (inout CompressionConfig) -> Void)
        async throws -> (result: CompressionResult, measured: (integrated: Double, truePeak: Double)) {
        var config = Harness.fastConfig(in: try Fixtures.scratchDirectory("loudness"))
        configure(&config)
        let result = try await VideoCompressor().compressVideo(source, config: config)
        let measured = try await offPool { try SoundProbe.loudness(of: result.url) }
        return (result, measured)
    }

    @Test(arguments: [-20.0, 10.0])
    func quietAndLoudSourcesReachTheTarget(gain: Double) async throws {
        let source = try await Self.clip(gain: gain)
        let before = try await offPool { try SoundProbe.loudness(of: source) }
        let (result, after) = try await Self.compress(source) { $0.loudness = .streaming }
        #expect(abs(after.integrated + 14) <= 1, "\(after)")
        #expect(after.truePeak <= -1, "\(after)")
        let report = try #require(result.analytics.loudness)
        #expect(report.target == .streaming)
        // What the library measured agrees with the CLI: the source before, the output after.
        #expect(abs(report.source.integrated - before.integrated) < 0.5, "\(report.source) vs \(before)")
        #expect(abs(report.source.truePeak - before.truePeak) < 0.5, "\(report.source) vs \(before)")
        let output = try #require(report.output)
        #expect(abs(output.integrated - after.integrated) < 0.3 && abs(output.truePeak - after.truePeak) < 0.3, "\(output) vs \(after)")
        // Its peaks stand 14-15 dB above its loudness: held under the ceiling by the limiter,
        // which takes some loudness away that the gain makes up.
        #expect(report.limited)
        let plain = -14 - before.integrated
        #expect(report.gain >= plain - 0.5 && report.gain < plain + 6, "\(report.gain) against \(plain)")
    }

    @Test func aQuietSoundWithRoomToSpareGetsAPlainGain() async throws {
        // A steady tone's peaks stand 3 dB above its loudness: a gain alone, exact.
        let source = try await AudioJoinTests.toneClip()
        let (result, after) = try await Self.compress(source) {
            $0.loudness = LoudnessTarget(integrated: -23)
            $0.trimEndTime = MediaTime(seconds: 4)
        }
        #expect(abs(after.integrated + 23) <= 0.3, "\(after)")
        let report = try #require(result.analytics.loudness)
        #expect(!report.limited)
    }

    @Test func withoutATargetTheLoudnessIsTheSources() async throws {
        let source = try await Self.clip(gain: -20)
        let before = try await offPool { try SoundProbe.loudness(of: source) }
        let (result, after) = try await Self.compress(source) { _ in }
        #expect(abs(after.integrated - before.integrated) < 0.5, "\(after) vs \(before)")
        #expect(result.analytics.loudness == nil)
    }

    @Test func onlyTheKeptSoundIsMeasured() async throws {
        // Loud for 4 s, 15 dB quieter after: a reel of the quiet part alone is raised to the
        // target; measured over the whole file (the loud part counts most) it would stay 12 dB short.
        let source = try await Self.clip(gain: 0, second: -15)
        let (result, after) = try await Self.compress(source) {
            $0.loudness = .streaming
            $0.trim = .ranges([TimeRange(start: MediaTime(seconds: 4.5), end: MediaTime(seconds: 6.5)),
                               TimeRange(start: MediaTime(seconds: 7), end: MediaTime(seconds: 8))])
        }
        #expect(abs(after.integrated + 14) <= 1, "\(after)")
        #expect(after.truePeak <= -1, "\(after)")
        #expect((result.analytics.loudness?.gain ?? 0) > 18)
    }

    @Test func highlightReelsAreBroughtToMinus14ByDefault() async throws {
        let url = try Fixtures.clip("story.mp4")
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: url))
        let (reel, measured) = try await Self.compress(url) {
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 6, analysis: analysis))
        }
        #expect(abs(measured.integrated + 14) <= 1, "\(measured)")
        #expect(measured.truePeak <= -1, "\(measured)")
        #expect(reel.analytics.loudness?.target == .streaming)
        let (kept, _) = try await Self.compress(url) {
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 6, analysis: analysis, loudness: nil))
        }
        #expect(kept.analytics.loudness == nil)
    }

    @Test func measuringReportsItsStageAndProgressAndCanBeCancelled() async throws {
        let source = try await Self.clip(gain: -20)
        var config = Harness.fastConfig(in: try Fixtures.scratchDirectory("loudness-stages"))
        config.loudness = .streaming
        let stages = Mutex<[CompressionStage]>([])
        let log = ProgressLog()
        let compressor = VideoCompressor()
        _ = try await compressor.compressVideo(source, config: config, progressHandler: log.handler,
                                               stageHandler: { stage in stages.withLock { $0.append(stage) } })
        #expect(stages.withLock { $0 } == [.measuringLoudness, .encoding])
        #expect(log.all.last == 1 && zip(log.all, log.all.dropFirst()).allSatisfy { $0 < $1 })
        #expect(log.all.contains { $0 > 0 && $0 <= CompressionJob.loudnessShare }, "\(log.all)")

        // Cancelled while measuring: no output, nothing left behind.
        let directory = try Fixtures.scratchDirectory("loudness-cancel")
        config.outputDirectory = directory
        let cancelling = VideoCompressor()
        let error = await Harness.reelError {
            _ = try await cancelling.compressVideo(source, config: config, stageHandler: { stage in
                if stage == .measuringLoudness { cancelling.cancel() }
            })
        }
        #expect(error == .cancelled)
        #expect(Fixtures.contents(of: directory).isEmpty, "\(Fixtures.contents(of: directory))")
    }

    @Test func soundThatMissesIsReplacedByTheCheckedSound() async throws {
        // The repair when an encode's own sound misses what the checks heard: the output's
        // pictures are kept, its sound and subtitles are the audio-only pass's, bit for bit.
        let source = try Fixtures.clip("tracks.mp4")
        let (result, before) = try await Self.compress(source) { _ in }
        var config = Harness.fastConfig(in: result.url.deletingLastPathComponent())
        config.trimEndTime = MediaTime(seconds: 6)
        let info = try MediaInfo.probe(source)
        var planner = CompressionPlanner(source: info, config: config, reducer: ReduceFrameEvenlySpaced())
        let ranges = try planner.keptRanges()
        let stream = try #require(info.primaryAudio?.index)
        planner.loudness = [stream: LoudnessAdjustment(gain: -10)]
        let pictures = try Harness.videoFrameTimes(result.url)
        let quieter = planner
        try await offPool {
            try LoudnessNormalization.replaceSound(of: result.url, planner: quieter, ranges: ranges, shouldCancel: { false })
        }
        let after = try await offPool { try SoundProbe.loudness(of: result.url) }
        #expect(abs(after.integrated - (before.integrated - 10)) < 0.3, "\(before) -> \(after)")
        // What a check hears is what the file now holds, to the sample: the same loudness and
        // true peak, not merely close.
        let plan = try quieter.decide(outputPath: result.url.path, ranges: ranges, content: nil).plan
        let (checked, heard) = try await offPool {
            (try LoudnessMeter.measure(plan: plan, adjustments: [LoudnessAdjustment(gain: -10)], shouldCancel: { false },
                                       progress: { _ in }).first,
             try LoudnessMeter.measure(file: result.url, shouldCancel: { false }))
        }
        #expect(checked != nil && checked == heard, "\(String(describing: checked)) vs \(String(describing: heard))")
        #expect(try Harness.videoFrameTimes(result.url) == pictures)
        let output = try MediaInfo.probe(result.url)
        #expect(output.streams.filter { $0.role == .subtitle }.count == 1)
        #expect(Fixtures.contents(of: result.url.deletingLastPathComponent()).filter { $0.hasPrefix(".") }.isEmpty)
    }
}
