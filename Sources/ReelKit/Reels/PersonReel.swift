import Foundation
import ReelAnalysis
import ReelCompression
import ReelFaces
import ReelMedia
import ReelSupport

/// One person of a face index (`FaceGroupAnalyzer`'s working directory), for a highlight reel
/// of the moments they are on screen, framed on them when the reel is reframed.
public struct ReelPerson: Sendable, Equatable {
    /// The face index's directory.
    public var faceIndex: URL
    /// The person, as `FaceGroupAnalyzer` groups them.
    public var entityID: FaceEntityID

    /// The person `entityID` of the index in `faceIndex`.
    public init(faceIndex: URL, entityID: FaceEntityID) {
        self.faceIndex = faceIndex
        self.entityID = entityID
    }

    /// Where the person is seen in `source`: the index's faces of them in this video, with the
    /// ranges those samples stand for. A video not in the index yet is added (its faces found
    /// and grouped, every person keeping their id) first.
    func appearances(in source: MediaInfo) async throws(ReelError) -> (ranges: [TimeRange], faces: [Face]) {
        guard FaceGroupAnalyzer.indexExists(in: faceIndex) else {
            throw .faceIndexFailed(faceIndex, reason: "no face index here (add videos or photos to one first: "
                + "'reel faces add FILE --index \(faceIndex.path)')")
        }
        let index = try FaceGroupAnalyzer(workingDirectory: faceIndex)
        guard !(try await index.fetchFaces(for: entityID)).isEmpty else {
            throw .invalidConfiguration("the face index in \(faceIndex.path) has no person \(entityID) "
                + "('reel faces people --index \(faceIndex.path)' lists them)", file: source.url)
        }
        let asset = MediaIntelligenceVideoAsset(id: .init(source.url.path), kind: .url(source.url))
        if !(try await index.fetchAllAssetIDs()).contains(asset.id) {
            do {
                for try await _ in try await index.insertOrUpdateAssets([asset]) {}
            } catch let error as ReelError {
                throw error
            } catch let batch as FaceBatchError {
                throw batch.failures.first?.error ?? .cancelled
            } catch {
                throw .cancelled
            }
            try await index.update()
        }
        let faces = try await index.fetchFaces(for: asset.id).filter { $0.entityID == entityID && $0.time != nil }
        guard !faces.isEmpty else {
            throw .nothingToKeep(source.url, reason: "\(entityID) never appears in it (no face of theirs is found)")
        }
        let ranges = try await index.appearances(of: entityID)[asset.id] ?? []
        return (ranges, faces)
    }
}

extension VideoAnalysis {
    /// This analysis with only the segments that overlap `ranges` by at least half their
    /// length: what a reel of one person may pick from.
    func keepingSegments(within ranges: [TimeRange]) -> VideoAnalysis {
        var restricted = self
        restricted.segments = segments.filter { segment in
            let overlap = ranges.map { range in
                max(0, min(range.end.seconds, segment.timeRange.end.seconds) - max(range.start.seconds, segment.timeRange.start.seconds))
            }.reduce(0, +)
            return overlap >= 0.5 * (segment.timeRange.end - segment.timeRange.start).seconds
        }
        return restricted
    }

    /// The highlight level of a reel of one person, from this analysis restricted to them: the
    /// usual level, or lower, so that their strongest moments fill at least half their time on
    /// screen. Levels rank a moment against the whole video; a person's reel ranks their
    /// moments against each other, so a quiet close-up of them is not left out because
    /// someone else's scene was livelier. Level 0 (the video's dullest) never counts.
    func personLevel(usual: Float) -> Float {
        let rated = segments.filter { $0.level > 0 }.sorted { $0.level > $1.level }
        let screenTime = rated.map { $0.timeRange.duration.seconds }.reduce(0, +)
        var covered = 0.0
        for segment in rated {
            if segment.level >= usual { covered += segment.timeRange.duration.seconds; continue }
            guard covered < screenTime / 2 else { break }
            covered += segment.timeRange.duration.seconds
            if covered >= screenTime / 2 { return segment.level }
        }
        return usual
    }
}
