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

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where an asset's media is.
public enum MediaIntelligenceAssetKind: Sendable, Hashable {
    /// A file on disk.
    case url(URL)
}

/// A photo to analyze, identified by the app.
public struct MediaIntelligenceImageAsset: Sendable, Hashable, Identifiable {
    /// The identifier type (`MediaIntelligenceImageAsset.ID("record-42")`).
    public typealias ID = MediaIntelligenceAssetID
    /// The kind of source (`.url(fileURL)`).
    public typealias Kind = MediaIntelligenceAssetKind

    /// The app's stable id.
    public var id: ID
    /// Where the photo is.
    public var kind: Kind

    /// Creates an image asset.
    public init(id: ID, kind: Kind) {
        self.id = id
        self.kind = kind
    }
}

/// A video to analyze, identified by the app; works with `VideoAnalyzer` and
/// `FaceGroupAnalyzer`.
public struct MediaIntelligenceVideoAsset: Sendable, Hashable, Identifiable {
    /// The identifier type.
    public typealias ID = MediaIntelligenceAssetID
    /// The kind of source (`.url(fileURL)`).
    public typealias Kind = MediaIntelligenceAssetKind

    /// The app's stable id.
    public var id: ID
    /// Where the video is.
    public var kind: Kind

    /// Creates a video asset.
    public init(id: ID, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// A video asset identified by its file's path.
    public init(url: URL) {
        self.init(id: ID(url.path), kind: .url(url))
    }
}

extension MediaIntelligenceAssetKind {
    /// The file URL.
    public var url: URL {
        switch self {
        case .url(let url): return url
        }
    }
}
