import Foundation

/// The app's stable identity for a photo or video, as MediaIntelligence names it: the same id
/// inserted again updates that asset instead of adding another.
public struct MediaIntelligenceAssetID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral {
    /// The identifier's text.
    public let rawValue: String

    /// Creates an identifier from your own stable id (a record id, a path).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates an identifier from a literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The identifier's text.
    public var description: String { rawValue }

    /// Orders identifiers by their text.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where an asset's media is.
public enum MediaIntelligenceAssetKind: Sendable, Hashable {
    /// A file on disk.
    case url(URL)
}

extension MediaIntelligenceAssetKind {
    /// The file URL.
    public var url: URL {
        switch self {
        case .url(let url): return url
        }
    }
}

/// What a `MediaIntelligenceAsset` holds, as a type, so that a photo and a video are different
/// asset types: an image asset is not accepted where a video asset is expected.
public protocol MediaIntelligenceMedia: Sendable {}

/// A photo: the media of a `MediaIntelligenceImageAsset`.
public enum MediaIntelligenceImage: MediaIntelligenceMedia {}

/// A video: the media of a `MediaIntelligenceVideoAsset`.
public enum MediaIntelligenceVideo: MediaIntelligenceMedia {}

/// A photo or video to analyze, identified by the app; use it by its MediaIntelligence names,
/// `MediaIntelligenceImageAsset` and `MediaIntelligenceVideoAsset`.
public struct MediaIntelligenceAsset<Media: MediaIntelligenceMedia>: Sendable, Hashable, Identifiable {
    /// The identifier type (`MediaIntelligenceVideoAsset.ID("record-42")`).
    public typealias ID = MediaIntelligenceAssetID
    /// The kind of source (`.url(fileURL)`).
    public typealias Kind = MediaIntelligenceAssetKind

    /// The app's stable id.
    public var id: ID
    /// Where the media is.
    public var kind: Kind

    /// Creates an asset.
    public init(id: ID, kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// A photo to analyze, identified by the app; works with `FaceGroupAnalyzer`.
public typealias MediaIntelligenceImageAsset = MediaIntelligenceAsset<MediaIntelligenceImage>

/// A video to analyze, identified by the app; works with `VideoAnalyzer` and
/// `FaceGroupAnalyzer`.
public typealias MediaIntelligenceVideoAsset = MediaIntelligenceAsset<MediaIntelligenceVideo>

extension MediaIntelligenceAsset where Media == MediaIntelligenceVideo {
    /// A video asset identified by its file's path.
    public init(url: URL) {
        self.init(id: ID(url.path), kind: .url(url))
    }
}
