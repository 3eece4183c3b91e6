import Foundation
import ReelArguments
import ReelKit

/// Saved analyses: `reel analyze --json` output (its `analysis` member) or a bare encoded
/// `VideoAnalysis`, read back for `--analysis FILE` so the video is not analyzed again.
enum SavedAnalysisFile {
    /// The encoding written into `reel analyze --json` as `analysis` (compact, sorted keys).
    static func encoded(_ analysis: VideoAnalysis) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(analysis)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads the analysis saved at `path`.
    static func load(_ path: String) throws(ArgumentError) -> VideoAnalysis {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidValue(option: "--analysis", value: path, reason: "cannot read the file")
        }
        struct AnalyzeOutput: Decodable { let analysis: VideoAnalysis }
        let decoder = JSONDecoder()
        if let wrapped = try? decoder.decode(AnalyzeOutput.self, from: data) { return wrapped.analysis }
        do {
            return try decoder.decode(VideoAnalysis.self, from: data)
        } catch {
            throw .invalidValue(option: "--analysis", value: path,
                                reason: "not a saved analysis (write one with 'reel analyze IN --json > FILE')")
        }
    }
}
