import Foundation
import Testing
@testable import ReelCompression
@testable import ReelFrameReduction
@testable import ReelMedia
@testable import ReelSupport

/// Runs compressions for tests with fast settings unless a test asks otherwise.
enum Harness {
    /// A quick configuration: ultrafast encoder, no content sampling, output into `directory`.
    static func fastConfig(in directory: URL) -> CompressionConfig {
        var config = CompressionConfig()
        config.encoderSpeed = .ultrafast
        config.contentAwareOptimization = false
        config.outputDirectory = directory
        config.fps = 120
        return config
    }

    /// Compresses a fixture clip and probes the output with ReelKit's own demuxer.
    static func compress(
        _ clip: String,
        reducer: some VideoFrameReducer = ReduceFrameEvenlySpaced(),
        progress: ProgressLog? = nil,
        _ configure: (inout CompressionConfig) -> Void = { _ in }
    ) async throws -> (result: CompressionResult, output: MediaInfo, directory: URL) {
        let source = try Fixtures.clip(clip)
        let directory = try Fixtures.scratchDirectory(clip)
        var config = fastConfig(in: directory)
        configure(&config)
        let result = try await VideoCompressor().compressVideo(source, config: config, frameReducer: reducer,
                                                               progressHandler: progress?.handler)
        let output = try MediaInfo.probe(result.url)
        return (result, output, directory)
    }

    /// Presentation times (seconds) of every video packet, from ffprobe, sorted.
    static func videoFrameTimes(_ url: URL) throws -> [Double] {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "v:0", "-show_entries", "packet=pts_time,flags"])
        let packets = json["packets"] as? [[String: Any]] ?? []
        return packets.compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }.sorted()
    }

    /// How many video packets are keyframes, from ffprobe.
    static func keyframeCount(_ url: URL) throws -> Int {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "v:0", "-show_entries", "packet=flags"])
        let packets = json["packets"] as? [[String: Any]] ?? []
        return packets.filter { ($0["flags"] as? String)?.hasPrefix("K") == true }.count
    }

    /// The ReelError a throwing async call produced, or nil.
    static func reelError(_ work: () async throws -> Void) async -> ReelError? {
        do {
            try await work()
            return nil
        } catch let error as ReelError {
            return error
        } catch {
            Issue.record("unexpected error type: \(error)")
            return nil
        }
    }
}
