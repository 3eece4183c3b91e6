import Foundation
import ReelMedia
import ReelSupport

/// Everything one decode of a video found: shots, engagement per segment, the key frame.
/// Requests read their results from it. Times are on the API's timeline: zero is the file's
/// start (its first presented frame), as for compression ranges and thumbnails, whatever clock
/// the container keeps (an MPEG-TS often starts at 1.4 s).
public struct VideoAnalysis: Sendable, Equatable, Codable {
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
    /// The analyzed file's size in bytes, to tell a saved analysis of another file (`nil` when
    /// not recorded).
    public var sourceFileSize: Int64?
    /// The appearance signature of every sample, in time order, to tell repeated content apart.
    package var samples: [SampleSignature] = []
    /// The sound's level every 20 ms, for cutting edits where nothing is said (`nil` without
    /// audio, and in analyses saved before it was kept).
    package var sound: SoundEnvelope?
}

extension VideoAnalysis {
    /// Creates an analysis from its parts, for apps that mock one (the analyzer makes real
    /// ones): one decode pass, no refined cuts, as many sampled frames as `segments`.
    public init(duration: Double, boundaries: [ShotBoundary], shots: [TimeRange], segments: [EngagementSegment],
                keyFrame: MediaTime?, faces: [FaceSample] = [], sourceFileSize: Int64? = nil) {
        self.init(duration: duration, boundaries: boundaries, shots: shots, segments: segments, keyFrame: keyFrame,
                  decodePasses: 1, refinedCuts: 0, sampledFrames: segments.count, faces: faces, sourceFileSize: sourceFileSize,
                  samples: [])
    }
}

/// The coarse appearance of one sampled frame (block means of Y, U and V).
package struct SampleSignature: Sendable, Equatable, Codable {
    package var time: MediaTime
    package var signature: [UInt8]

    package init(time: MediaTime, signature: [UInt8]) {
        self.time = time
        self.signature = signature
    }

    private enum CodingKeys: String, CodingKey { case time, signature }

    /// The signature is saved as base64, a quarter of the size of a list of numbers.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.decode(MediaTime.self, forKey: .time)
        signature = try SignatureCoding.decode(container.decode(String.self, forKey: .signature))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(SignatureCoding.encode(signature), forKey: .signature)
    }
}

/// Appearance signatures in saved analyses: base64 text.
enum SignatureCoding {
    static func encode(_ signature: [UInt8]) -> String { Data(signature).base64EncodedString() }

    static func decode(_ text: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a signature is not base64"))
        }
        return [UInt8](data)
    }
}

/// Faces on one searched sample.
public struct FaceSample: Sendable, Equatable, Codable {
    /// When the sample is shown.
    public var time: MediaTime
    /// Where the faces are.
    public var presence: FacePresence

    /// Creates a sample.
    public init(time: MediaTime, presence: FacePresence) {
        self.time = time
        self.presence = presence
    }
}

extension VideoAnalysis {
    /// The best poster picture inside `range` (its middle when no sample there qualifies).
    package func bestPicture(in range: TimeRange) -> MediaTime {
        let candidates = segments.filter { segment in
            segment.posterTime.map { $0 >= range.start && $0 < range.end } ?? false
        }
        let middle = MediaTime(seconds: (range.start.seconds + range.end.seconds) / 2, timescale: 1_000_000)
        return candidates.max { $0.posterScore < $1.posterScore }?.posterTime ?? middle
    }

    /// The sample inside `range` that makes the best poster picture (its middle when none
    /// qualifies), on the API's timeline: what thumbnails of a shot or highlight show.
    public func posterTime(in range: TimeRange) -> MediaTime { bestPicture(in: range) }

    /// The highest engagement level of the segments that overlap `range` (0 when none do).
    package func peakLevel(in range: TimeRange) -> Float {
        segments.filter { $0.timeRange.start < range.end && range.start < $0.timeRange.end }.map(\.level).max() ?? 0
    }
}

/// A stretch of the timeline with its engagement level.
public struct EngagementSegment: Sendable, Equatable, Codable {
    /// The segment's time range.
    public var timeRange: TimeRange
    /// Engagement from 0 (least) to 9 (most).
    public var level: Float
    /// What was measured on it.
    public var features: SegmentFeatures
    /// The weighted signals before calibration against the rest of the video (0...1).
    public var rawEngagement: Double = 0
    /// The mean appearance signature of its samples, to tell repeated content apart.
    package var signature: [UInt8] = []
    /// Its sample that would make the best poster (`KeyFrameSelector`), if any qualifies.
    package var posterTime: MediaTime?
    /// That sample's poster score (0 when none).
    package var posterScore = 0.0

    /// Creates a segment (its signature and poster picture are the analyzer's to fill).
    public init(timeRange: TimeRange, level: Float, features: SegmentFeatures, rawEngagement: Double = 0) {
        self.timeRange = timeRange
        self.level = level
        self.features = features
        self.rawEngagement = rawEngagement
    }

    private enum CodingKeys: String, CodingKey {
        case timeRange, level, features, rawEngagement, signature, posterTime, posterScore
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        timeRange = try container.decode(TimeRange.self, forKey: .timeRange)
        level = try container.decode(Float.self, forKey: .level)
        features = try container.decode(SegmentFeatures.self, forKey: .features)
        rawEngagement = try container.decodeIfPresent(Double.self, forKey: .rawEngagement) ?? 0
        signature = try SignatureCoding.decode(container.decodeIfPresent(String.self, forKey: .signature) ?? "")
        posterTime = try container.decodeIfPresent(MediaTime.self, forKey: .posterTime)
        posterScore = try container.decodeIfPresent(Double.self, forKey: .posterScore) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timeRange, forKey: .timeRange)
        try container.encode(level, forKey: .level)
        try container.encode(features, forKey: .features)
        try container.encode(rawEngagement, forKey: .rawEngagement)
        try container.encode(SignatureCoding.encode(signature), forKey: .signature)
        try container.encodeIfPresent(posterTime, forKey: .posterTime)
        try container.encode(posterScore, forKey: .posterScore)
    }
}

extension VideoAnalysis {
    /// Why this analysis cannot be of `source` (another size or length), or `nil` when it can.
    public func mismatch(with source: MediaInfo) -> String? {
        if let sourceFileSize, sourceFileSize != source.fileSize {
            return "it was made from a file of \(sourceFileSize) bytes, this one has \(source.fileSize)"
        }
        if source.duration > 0, abs(source.duration - duration) > 0.05 {
            return String(format: "it was made from a video of %.3f s, this one lasts %.3f s", duration, source.duration)
        }
        return nil
    }
}

/// The mean appearance of the samples inside a range.
enum SegmentSignature {
    static func mean(of range: TimeRange, frames: [FrameFeatures], signatures: [[UInt8]]) -> [UInt8] {
        var sums: [Int] = []
        var count = 0
        for index in frames.indices where frames[index].time >= range.start && frames[index].time < range.end
            && index < signatures.count && !frames[index].isBlank {
            if sums.isEmpty { sums = [Int](repeating: 0, count: signatures[index].count) }
            guard signatures[index].count == sums.count else { continue }
            for position in sums.indices { sums[position] += Int(signatures[index][position]) }
            count += 1
        }
        guard count > 0 else { return [] }
        return sums.map { UInt8(clamping: $0 / count) }
    }
}

/// Picks highlight ranges from an analysis (see `HighlightEditor`).
package enum HighlightSelector {
    /// The highlights without a budget: pieces at or above `minimumLevel` (default
    /// `HighlightEditing.defaultLevel`), cut as an editor would, in time order.
    package static func highlights(_ analysis: VideoAnalysis, minimumLevel: Float?) -> [TimeRange] {
        var editing = HighlightEditing()
        editing.spansTheStory = false
        if let minimumLevel { editing.minimumLevel = minimumLevel }
        return HighlightEditor.pieces(analysis, editing: editing)
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
            moved.posterTime = segment.posterTime.map { $0 + offset }
            return moved
        }
        result.keyFrame = keyFrame.map { $0 + offset }
        result.faces = faces.map { FaceSample(time: $0.time + offset, presence: $0.presence) }
        result.samples = samples.map { SampleSignature(time: $0.time + offset, signature: $0.signature) }
        result.sound = sound?.shifted(by: offset.seconds)
        return result
    }
}
