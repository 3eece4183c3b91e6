import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia

/// A job probes its source once; later stages reuse the facts and reopen the file only to read
/// its packets.
@Suite(.timeLimit(.minutes(5))) struct ProbeOnceTests {
    /// A private copy of a fixture, so no other test's probes are counted.
    static func privateCopy(_ name: String) throws -> URL {
        let copy = try Fixtures.scratchDirectory(name).appendingPathComponent(name)
        try FileManager.default.copyItem(at: try Fixtures.clip(name), to: copy)
        return copy
    }

    static func probes(of url: URL) -> Int { InputFile.probes.withLock { $0[url.path] ?? 0 } }

    @Test func aCompressionProbesItsSourceOnce() async throws {
        let source = try Self.privateCopy("cfr_audio.mp4")
        var config = Harness.fastConfig(in: source.deletingLastPathComponent())
        config.contentAwareOptimization = true  // the content sampler reads the source too
        _ = try await VideoCompressor().compressVideo(source, config: config)
        #expect(Self.probes(of: source) == 1)
    }

    @Test func aStreamCopyProbesOnceMoreToCopyTheCodecParameters() async throws {
        // The copier passes on codec parameters that only probing completes (VP9's for MP4's
        // vpcC box, say), so it probes; the keyframe scan before it does not.
        let source = try Self.privateCopy("cfr_audio.mp4")
        var config = Harness.fastConfig(in: source.deletingLastPathComponent())
        config.streamCopy = true
        _ = try await VideoCompressor().compressVideo(source, config: config)
        #expect(Self.probes(of: source) == 2)
    }

    @Test func aHighlightReelAndAKeyFrameThumbnailProbeTheirSourceOnce() async throws {
        let source = try Self.privateCopy("story.mp4")
        var config = Harness.fastConfig(in: source.deletingLastPathComponent())
        config.trim = .highlights(HighlightReelOptions(maximumDuration: 4), analyzer: VideoAnalyzer())
        _ = try await VideoCompressor().compressVideo(source, config: config)
        #expect(Self.probes(of: source) == 1)
        let image = source.deletingLastPathComponent().appendingPathComponent("key.jpg")
        _ = try await Thumbnailer(analyzer: VideoAnalyzer()).thumbnail(of: source, to: image)
        #expect(Self.probes(of: source) == 2)
    }
}
