import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// One row per class of awkward input that issue 13 names (and the fuzzer's finding): each is
/// probed, compressed, analyzed and thumbnailed, and each call either succeeds with a real
/// result or throws a `ReelError` naming the file; no partial output is ever left behind.
/// The specific behaviour of each class has its own test; this table guards the contract.
@Suite(.timeLimit(.minutes(5))) struct BadInputTableTests {
    /// (clip, whether it is a usable video).
    static let rows: [(String, Bool)] = [
        ("empty.mp4", false), ("not_video.mp4", false), ("truncated.mp4", false), ("audio_only.m4a", false),
        ("corrupted.mp4", true), ("damaged_packet.mp4", true), ("damaged_keyframe.mp4", true),
        ("truncated_media.mp4", false), ("story.h264", true), ("discontinuous.ts", true), ("offset.mp4", true),
        ("onekey.ts", true), ("primed.webm", true), ("recovery_points.mp4", true), ("packed_bframes.avi", true),
        ("ac3_chunks.avi", true), ("tagged.mp4", true), ("odd_dims.mkv", true), ("vfr_audio.mp4", true),
        ("tracks.mp4", true), ("subtitles.mkv", true),
    ]

    @Test(arguments: rows.map(\.0))
    func everyCallSucceedsOrNamesTheFile(clip: String) async throws {
        let source = try Fixtures.clip(clip)
        let usable = Self.rows.first { $0.0 == clip }?.1 ?? false
        let directory = try Fixtures.scratchDirectory("table-\(clip)")
        func check(_ error: ReelError?, _ what: String) {
            guard let error else { return }
            #expect(error.fileURL?.lastPathComponent == clip || error.description.contains(clip), "\(clip) \(what): \(error)")
        }
        var probeError: ReelError?
        do { _ = try MediaInfo.probe(source) } catch { probeError = error }
        check(probeError, "probe")
        let compressError = await Harness.reelError {
            let result = try await VideoCompressor().compressVideo(source, config: Harness.fastConfig(in: directory))
            let output = try MediaInfo.probe(result.url)
            #expect(output.primaryVideo != nil && output.duration > 0, "\(clip): \(output.duration)")
        }
        check(compressError, "compress")
        let analysisError = await Harness.reelError {
            var options = VideoAnalyzer.Options()
            options.faces = nil
            let analysis = try await VideoAnalyzer(options: options).analysis(of: MediaIntelligenceVideoAsset(url: source))
            #expect(!analysis.segments.isEmpty)
        }
        check(analysisError, "analyze")
        let thumbnailError = await Harness.reelError {
            _ = try await Thumbnailer(analyzer: VideoAnalyzer()).thumbnail(
                of: source, at: .zero, to: directory.appendingPathComponent("thumb.jpg"))
        }
        check(thumbnailError, "thumbnail")
        if usable { #expect(probeError == nil && thumbnailError == nil, "\(clip) is a video") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("reel-tmp") }
        #expect(leftovers.isEmpty, "\(clip) left \(leftovers)")
    }
}
