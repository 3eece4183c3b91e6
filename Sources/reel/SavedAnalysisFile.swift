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

    /// The analysis of `input`: `saved` once checked to be of this file, else a fresh one, its
    /// progress on standard error (`analyzing NAME[ for]: N%`) unless `quiet`.
    static func analysis(
        of input: InputItem, saved: VideoAnalysis?, quiet: Bool, purpose: String = ""
    ) async throws(ReelError) -> VideoAnalysis {
        if let saved {
            try saved.requireSource(try MediaInfo.probe(input.url))
            return saved
        }
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: input.url)) { fraction in
            if !quiet { Console.printErr("\ranalyzing \(input.display)\(purpose): \(Int(fraction * 100))%") }
        }
        if !quiet { Console.printErr("\r\u{1B}[K") }
        return analysis
    }
}
