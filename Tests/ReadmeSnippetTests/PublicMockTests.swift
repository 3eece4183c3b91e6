import Foundation
import ReelKit
import Testing

/// Apps can build analysis and compression results from public initializers alone (to mock
/// them in their own tests), and the request outputs and results are `Codable`.
@Suite struct PublicMockTests {
    static func range(_ start: Double, _ end: Double) -> TimeRange {
        TimeRange(start: MediaTime(seconds: start, timescale: 600), end: MediaTime(seconds: end, timescale: 600))
    }

    @Test func aMockedAnalysisAnswersTheRequests() throws {
        let shots = [Self.range(0, 4), Self.range(4, 10), Self.range(10, 14)]
        let segments = zip(shots, [Float(1), 8, 2]).map { EngagementSegment(timeRange: $0, level: $1, features: SegmentFeatures()) }
        let analysis = VideoAnalysis(
            duration: 14, boundaries: [ShotBoundary(time: MediaTime(seconds: 4, timescale: 600), kind: .cut),
                                       ShotBoundary(time: MediaTime(seconds: 10, timescale: 600), kind: .cut)],
            shots: shots, segments: segments, keyFrame: MediaTime(seconds: 6, timescale: 600))
        let highlights = try HighlightAnalysisRequest().result(from: analysis)
        #expect(highlights.highlights == [Self.range(4, 10)], "\(highlights.highlights)")
        #expect(highlights.levels.map(\.level) == [1, 8, 2])
        #expect(try KeyFrameAnalysisRequest().result(from: analysis) == KeyFrameAnalysisRequest.Output(timestamp: MediaTime(seconds: 6, timescale: 600)))
        let decoder = JSONDecoder(), encoder = JSONEncoder()
        #expect(try decoder.decode(HighlightAnalysisRequest.Output.self, from: encoder.encode(highlights)) == highlights)
        let shotOutput = try ShotAnalysisRequest().result(from: analysis)
        #expect(try decoder.decode(ShotAnalysisRequest.Output.self, from: encoder.encode(shotOutput)) == shotOutput)
        #expect(try decoder.decode(VideoAnalysis.self, from: encoder.encode(analysis)) == analysis)
    }

    /// The outputs under MediaIntelligence's names: each request's `Result`, the protocol's
    /// `Output` being the same type, so apps mock either.
    @Test func theOutputsAreNamedResult() throws {
        let keyFrame: KeyFrameAnalysisRequest.Result = KeyFrameAnalysisRequest.Output(timestamp: MediaTime(value: 6, timescale: 1))
        #expect(keyFrame.timestamp.seconds == 6)
        let levels: [(timeRange: TimeRange, level: Float)] = [(Self.range(0, 4), 1), (Self.range(4, 10), 8)]
        let highlights = HighlightAnalysisRequest.Result(highlights: [Self.range(4, 10)], levels: levels, shots: [Self.range(0, 10)])
        #expect(highlights.level(of: Self.range(4, 10)) == 8 && highlights.level(of: Self.range(4, 9)) == nil)
        let output: HighlightAnalysisRequest.Output = highlights
        #expect(output.levels.map(\.level) == [1, 8])
        #expect(ShotAnalysisRequest.Result(shots: [], boundaries: []) == ShotAnalysisRequest.Output(shots: [], boundaries: []))
    }
}

/// `CompressionConfig` saves and restores through JSON; what runs code (a highlight reel's
/// planner, a target quality's shot planner) refuses to be saved, saying so.
@Suite struct ConfigCodingTests {
    @Test func aConfigRoundTripsAndPlannersRefuse() throws {
        var config = VideoQuality.socialMedia.defaultConfig
        config.trim = .ranges([TimeRange(start: MediaTime(value: 3, timescale: 2), end: MediaTime(value: 4, timescale: 1))])
        config.targetFileSize = .percentOfSource(40)
        config.hdr = .keep
        config.audioTracks = .number(2)
        config.loudness = LoudnessTarget(integrated: -16)
        config.edgeFadeDuration = 0.4
        config.outputURL = URL(fileURLWithPath: "/tmp/out.mp4")
        let data = try JSONEncoder().encode(config)
        #expect(try JSONDecoder().decode(CompressionConfig.self, from: data) == config)
        var quality = CompressionConfig.default
        quality.targetQuality = TargetQuality(.psnr, 40)
        #expect(try JSONDecoder().decode(CompressionConfig.self, from: JSONEncoder().encode(quality)) == quality)
        var reel = CompressionConfig.default
        reel.trim = .highlights(HighlightReelOptions(maximumDuration: 30))
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(reel) }
        quality.targetQuality = .analyzedShots(.ssim, 0.98)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(quality) }
    }
}
