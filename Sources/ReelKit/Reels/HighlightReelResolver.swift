import Foundation

/// Runs (or reuses) the analysis of a source and picks its highlight reel's ranges.
struct HighlightReelResolver {
    let source: URL
    let options: HighlightReelOptions
    let analyzer: VideoAnalyzer
    let flag: CancellationFlag
    let progress: ProgressReporter

    func ranges() async throws(ReelError) -> [TimeRange] {
        let analysis: VideoAnalysis
        if let given = options.analysis {
            analysis = given
        } else {
            analysis = try await analyze()
        }
        if flag.isRaised { throw .cancelled }
        let ranges = HighlightReelPlanner.ranges(for: analysis, options: options)
        guard !ranges.isEmpty else {
            throw .invalidRanges("no segment of \(source.lastPathComponent) reaches the highlight level")
        }
        return ranges
    }

    /// Analyzes the source; `cancel()` on the compressor or cancelling the task stops it.
    private func analyze() async throws(ReelError) -> VideoAnalysis {
        let asset = try VideoAsset(url: source)
        let analyzer = self.analyzer, progress = self.progress
        let task = Task { () async throws -> VideoAnalysis in
            try await analyzer.analysis(of: asset) { progress.report($0) }
        }
        flag.onRaise { task.cancel() }
        let outcome = await withTaskCancellationHandler {
            await task.result
        } onCancel: {
            task.cancel()
        }
        switch outcome {
        case .success(let analysis):
            return analysis
        case .failure(let error as ReelError):
            throw error
        case .failure:
            throw .cancelled
        }
    }
}
