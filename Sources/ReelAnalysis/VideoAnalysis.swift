import ReelMedia
import ReelSupport

/// Everything one decode of a video found: shots, engagement per segment, the key frame.
/// Requests read their results from it. Times are on the API's timeline: zero is the file's
/// start (its first presented frame), as for compression ranges and thumbnails, whatever clock
/// the container keeps (an MPEG-TS often starts at 1.4 s).
public struct VideoAnalysis: Sendable, Equatable {
    /// The analyzed file's video duration in seconds.
    public var duration: Double
    /// Where shots change, in time order.
    public var boundaries: [ShotBoundary]
    /// The shots, contiguous from the start to the end of the video.
    public var shots: [TimeRange]
    /// Segments (shots, long ones split into chunks) with their engagement, covering the whole
    /// video contiguously.
    public var segments: [EngagementSegment]
    /// The exact time of the most representative decoded frame, if any frame decoded.
    public var keyFrame: MediaTime?
    /// Full decode passes over the file this analysis took (always 1).
    public var decodePasses: Int
    /// Short full-rate windows re-decoded to place cuts on the exact frame.
    public var refinedCuts: Int
    /// Frames measured in the main pass.
    public var sampledFrames: Int
    /// The faces seen on the samples the face pass searched (empty when it was off).
    public var faces: [FaceSample] = []
}

/// Faces on one searched sample.
public struct FaceSample: Sendable, Equatable, Codable {
    /// When the sample is shown.
    public var time: MediaTime
    /// Where the faces are.
    public var presence: FacePresence
}

extension VideoAnalysis {
    /// The highest engagement level of the segments that overlap `range` (0 when none do).
    package func peakLevel(in range: TimeRange) -> Float {
        segments.filter { $0.timeRange.start < range.end && range.start < $0.timeRange.end }.map(\.level).max() ?? 0
    }
}

/// A stretch of the timeline with its engagement level.
public struct EngagementSegment: Sendable, Equatable {
    /// The segment's time range.
    public var timeRange: TimeRange
    /// Engagement from 0 (least) to 9 (most).
    public var level: Float
    /// What was measured on it.
    public var features: SegmentFeatures
}

/// Picks highlight ranges from engagement levels.
package enum HighlightSelector {
    /// Segments at or above the threshold, adjacent ones merged, in time order. Without an
    /// explicit minimum the threshold is one level above the median (at most the top level), and
    /// never below 4.5, so a video of uniformly dull segments has no highlights.
    package static func highlights(_ segments: [EngagementSegment], minimumLevel: Float?) -> [TimeRange] {
        guard !segments.isEmpty else { return [] }
        let threshold = minimumLevel ?? automaticThreshold(segments)
        var ranges: [TimeRange] = []
        for segment in segments where segment.level >= threshold {
            if let last = ranges.last, last.end == segment.timeRange.start {
                ranges[ranges.count - 1].end = segment.timeRange.end
            } else {
                ranges.append(segment.timeRange)
            }
        }
        return ranges
    }

    static func automaticThreshold(_ segments: [EngagementSegment]) -> Float {
        let sorted = segments.map(\.level).sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
        // One above the median, but a uniformly engaging video still keeps its best segments.
        return max(4.5, min(median + 1, sorted.last ?? 9))
    }
}

extension VideoAnalysis {
    /// The same analysis with every time moved by `offset` (from the file's clock to the API's
    /// timeline, whose zero is the file's start).
    func shifted(by offset: MediaTime) -> VideoAnalysis {
        guard offset != .zero else { return self }
        func move(_ range: TimeRange) -> TimeRange { TimeRange(start: range.start + offset, end: range.end + offset) }
        var result = self
        result.boundaries = boundaries.map { boundary in
            var moved = boundary
            moved.time = boundary.time + offset
            moved.transition = boundary.transition.map(move)
            return moved
        }
        result.shots = shots.map(move)
        result.segments = segments.map { segment in
            var moved = segment
            moved.timeRange = move(segment.timeRange)
            return moved
        }
        result.keyFrame = keyFrame.map { $0 + offset }
        result.faces = faces.map { FaceSample(time: $0.time + offset, presence: $0.presence) }
        return result
    }
}
