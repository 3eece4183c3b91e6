// The non-UI code of the SwiftUI article on MediaIntelligence (../shared/seeds/000_*, "SwiftUI:
// Simple On-Device Video Analysis with Media Intelligence"), as printed there, with only
// `import AVFoundation` and `import MediaIntelligence` changed to `import ReelKit` and `CGImage`
// to `FrameImage`. The article does not show its `VideoAnalysisManager`'s declaration; the
// functions below are its body. What its ContentView computes (without SwiftUI) follows in
// `ArticleViewLogic`. SwiftUIArticleSampleTests.swift runs them on real footage.

import Foundation
import ReelKit

final class VideoAnalysisManager {
    func extractKeyframe(_ videoURL: URL) async throws -> (FrameImage, CMTime) {
        let asset = try self.createAsset(from: videoURL)
        let request = KeyFrameAnalysisRequest()
        let result = try await VideoAnalyzer.shared.analyze(asset, for: request)

        var timestamp: CMTime
        switch result {
        case .success(let keyframe):
            timestamp = keyframe.timestamp
        case .failure(let error):
            print("Fail to extract keyframe: \(error.localizedDescription)")
            throw error
        }

        return try await generateFrame(from: videoURL, at: timestamp)
    }

    private func createAsset(from videoURL: URL) throws
        -> MediaIntelligenceVideoAsset
    {
        // MediaIntelligenceVideoAsset.Kind.url(_:) requires a file URL pointing to a video on disk
        guard videoURL.isFileURL else {
            throw VideoAnalysisError.invalidURL
        }

        let assetID = UUID().uuidString
        let asset = MediaIntelligenceVideoAsset(
            id: MediaIntelligenceVideoAsset.ID(assetID),
            kind: .url(videoURL)
        )
        return asset
    }

    private func generateFrame(from videoURL: URL, at time: CMTime)
        async throws
        -> (FrameImage, CMTime)
    {
        print("request time: \(time.seconds)")
        let asset = AVURLAsset(url: videoURL)
        let generator = AVAssetImageGenerator(asset: asset)

        // Retain correct video orientation
        generator.appliesPreferredTrackTransform = true

        // Set tolerances to zero for precise frame capturing.
        // Without this, AVFoundation may return an approximate keyframe for speed.
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero

        do {
            let (cgImage, actualTime) = try await generator.image(at: time)
            return (cgImage, actualTime)
        } catch (let error) {
            print("Error generating frame: \(error.localizedDescription)")
            throw error
        }
    }

    func extractHighlights(_ videoURL: URL) async throws -> (
        highlights: [CMTimeRange],
        engagementLevels: [(timeRange: CMTimeRange, level: Float)]
    ) {
        let asset = try self.createAsset(from: videoURL)
        let request = HighlightAnalysisRequest()
        let result = try await VideoAnalyzer.shared.analyze(asset, for: request)

        switch result {
        case .success(let analysis):
            return (analysis.highlights, analysis.levels)
        case .failure(let error):
            print("Fail to extract highlights: \(error.localizedDescription)")
            throw error
        }
    }
}

enum VideoAnalysisError: Error, LocalizedError {
    case invalidURL

    var errorDescription: String? {
        return switch self {
        case .invalidURL:
            "The provided URL is not a valid file URL."
        }
    }
}

extension CMTime {
    var formatted: String {
        let totalSeconds = CMTimeGetSeconds(self)
        let totalMilliseconds = Int(totalSeconds * 1000)

        let hours = totalMilliseconds / 3_600_000
        let minutes = totalMilliseconds / 60_000
        let seconds = (totalMilliseconds / 1000) % 60
        let milliseconds = totalMilliseconds % 1000

        if hours > 0 {
            return String(
                format: "%d:%02d:%02d.%03d",
                hours,
                minutes,
                seconds,
                milliseconds
            )
        } else {
            return String(
                format: "%02d:%02d.%03d",
                minutes,
                seconds,
                milliseconds
            )
        }
    }
}

/// The article's ContentView without SwiftUI: the rows its "Highlights" and "Engagements"
/// sections show, computed with the view's own expressions.
enum ArticleViewLogic {
    /// One row of `highlightRow(range:engagementLevel:)`: its two lines of text.
    struct Row {
        var range: CMTimeRange
        var engagementLevel: Float?

        /// The row's texts, as `highlightRow` writes them.
        var texts: [String] {
            var lines = ["\(range.start.formatted) - \(range.end.formatted)"]
            if let engagementLevel {
                lines.append("Level: \(Int((engagementLevel)))")
            }
            return lines
        }
    }

    /// The "Highlights" section: each highlight with the level it finds among the levels.
    static func highlightRows(
        highlights: [CMTimeRange], engagementLevels: [(timeRange: CMTimeRange, level: Float)]
    ) -> [Row] {
        highlights.map { highlight in
            let level = engagementLevels.first(where: {
                $0.timeRange == highlight
            })
            return Row(range: highlight, engagementLevel: level?.level)
        }
    }

    /// The "Engagements" section: the levels that are not highlights.
    static func engagementRows(
        highlights: [CMTimeRange], engagementLevels: [(timeRange: CMTimeRange, level: Float)]
    ) -> [Row] {
        let engagements = engagementLevels.filter({
            !highlights.contains($0.timeRange)
        })
        return engagements.map { Row(range: $0.timeRange, engagementLevel: $0.level) }
    }
}
