import Foundation
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// Fades at an output's edges, read back: the first and last pictures black, the sound rising
/// from silence and falling back to it, and everything between as it was.
@Suite(.timeLimit(.minutes(5))) struct EdgeFadeTests {
    /// Mean of block means (0...1).
    static func mean(_ blocks: [Float]) -> Float { blocks.reduce(0, +) / Float(max(blocks.count, 1)) }

    /// Block-wise mean absolute difference.
    static func distance(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Float(max(a.count, 1))
    }

    /// Limited-range black, as a 0...1 luma.
    static let black: Float = 16.0 / 255

    @Test func fadesTakeTheOutputFromBlackAndSilenceAndBack() async throws {
        let ranges = [TimeRange(start: AudioJoinTests.at(30), end: AudioJoinTests.at(60)),
                      TimeRange(start: AudioJoinTests.at(91), end: AudioJoinTests.at(120))]
        let (faded, fadedSound) = try await AudioJoinTests.join(ranges) { $0.edgeFadeDuration = 0.4 }
        let (plain, plainSound) = try await AudioJoinTests.join(ranges)
        let end = 59.0 / 30
        let times = [0.5, 1.0, 1.4]
        let pictures = try await offPool { () throws -> (first: [Float], last: [Float], plainFirst: [Float], plainLast: [Float],
                                                         half: Float, full: Float, middle: [Float]) in
            (try FrameProbe.firstFrame(of: faded).blocks, try FrameProbe.frame(of: faded, at: end - 1.0 / 30),
             try FrameProbe.firstFrame(of: plain).blocks, try FrameProbe.frame(of: plain, at: end - 1.0 / 30),
             Self.mean(try FrameProbe.frame(of: faded, at: 0.2)), Self.mean(try FrameProbe.frame(of: plain, at: 0.2)),
             try times.map { time in Self.distance(try FrameProbe.frame(of: faded, at: time), try FrameProbe.frame(of: plain, at: time)) })
        }
        #expect(Self.mean(pictures.first) < Self.black + 0.01)
        #expect(Self.mean(pictures.last) < Self.black + 0.01)
        // Without fades the same pictures are testsrc2's, far from black.
        #expect(Self.mean(pictures.plainFirst) > Self.black + 0.2)
        #expect(Self.mean(pictures.plainLast) > Self.black + 0.2)
        // Halfway through the fade in, the picture is about half way from black.
        #expect(abs((pictures.half - Self.black) / (pictures.full - Self.black) - 0.5) < 0.1, "\(pictures.half) of \(pictures.full)")
        // Between the fades, nothing changed.
        for (time, difference) in zip(times, pictures.middle) { #expect(difference < 0.01, "at \(time) s") }
        let level = plainSound.rms(0.5, 1.4)
        #expect(fadedSound.rms(0, 0.02) < 0.05 * level)
        #expect(fadedSound.rms(end - 0.02, end) < 0.05 * level)
        #expect(fadedSound.rms(0.18, 0.22) > 0.3 * level && fadedSound.rms(0.18, 0.22) < 0.7 * level)
        #expect(abs(fadedSound.rms(0.5, 1.4) - level) < 0.01 * level)
        #expect(abs(fadedSound.duration - plainSound.duration) < 1e-3)
    }

    @Test func reelsFadeByDefaultAndPlainCompressionsDoNot() async throws {
        let url = try Fixtures.clip("story.mp4")
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: url))
        // Constant quality: with a capped bit rate, x264's VBV under the whole suite's load once
        // coded the last picture mostly as the one before it (the fade's 95%: mean 0.0825),
        // and the claim here is about the fade, not the rate control.
        let reel = try await Harness.compress("story.mp4") {
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 6, analysis: analysis))
            $0.useExplicitBitrate = false
        }
        let unfaded = try await Harness.compress("story.mp4") {
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 6, analysis: analysis, edgeFadeDuration: 0))
            $0.useExplicitBitrate = false
        }
        let overridden = try await Harness.compress("story.mp4") {
            $0.trim = .highlights(HighlightReelOptions(maximumDuration: 6, analysis: analysis))
            $0.edgeFadeDuration = 0
            $0.useExplicitBitrate = false
        }
        let whole = try await Harness.compress("cfr_audio.mp4")
        let means = try await offPool { () throws -> [Float] in
            try [FrameProbe.firstFrame(of: reel.result.url).blocks, FrameProbe.lastFrame(of: reel.result.url),
                 FrameProbe.firstFrame(of: unfaded.result.url).blocks, FrameProbe.firstFrame(of: overridden.result.url).blocks,
                 FrameProbe.firstFrame(of: whole.result.url).blocks].map(Self.mean)
        }
        #expect(means[0] < Self.black + 0.01 && means[1] < Self.black + 0.01, "\(means)")
        #expect(means[2] > Self.black + 0.1 && means[3] > Self.black + 0.1, "\(means)")
        #expect(means[4] > Self.black + 0.2, "\(means)")
        #expect(reel.result.analytics.keptRanges == unfaded.result.analytics.keptRanges)
    }
}
