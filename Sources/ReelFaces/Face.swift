import Foundation
import ReelMedia
import ReelSupport

/// The identity of one group of faces that look like the same person. It is a technical id,
/// not a name: naming people is the app's, kept outside the analyzer's directory.
public struct FaceEntityID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The identifier's text.
    public let rawValue: String

    /// Wraps an id read back from the app's own records.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One appearance of a face in one photo (or one sampled frame of a video).
public struct Face: Sendable, Hashable, Identifiable, Codable {
    /// Identifies this appearance.
    public struct ID: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The identifier's text.
        public let rawValue: String

        /// Wraps an id.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }
    }

    /// This appearance.
    public var id: ID
    /// The photo or video it was found in.
    public var assetID: MediaIntelligenceAssetID
    /// The face's box, normalized to 0...1 of the upright picture (origin top left).
    public var bounds: CGRect
    /// The person group it belongs to, once `FaceGroupAnalyzer.update()` has grouped it. A face
    /// of an asset inserted again carries the entity of the face it replaced until then.
    public var entityID: FaceEntityID?
    /// The detector's confidence (higher is surer; faces below the analyzer's minimum are dropped).
    public var score: Double
    /// When it was seen, for a video (from the video's start).
    public var time: MediaTime?
}

/// Where the person groups of a `FaceGroupAnalyzer` stand.
public enum FaceGroupState: String, Sendable, Codable {
    /// The groups include every stored face.
    case ready
    /// Faces were inserted, updated or deleted since the last grouping: call `update()`.
    case stale
    /// `update()` is running.
    case updating
}
