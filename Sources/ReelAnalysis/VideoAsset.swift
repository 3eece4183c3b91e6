import Foundation
import ReelMedia
import ReelSupport

/// A video to analyze: your identifier and a file URL, like MediaIntelligence's video asset.
public struct VideoAsset: Sendable, Hashable {
    /// The identifier you assigned.
    public var id: String
    /// The file to read.
    public var url: URL

    /// Creates an asset; the URL must be a file URL.
    public init(id: String, url: URL) throws(ReelError) {
        guard url.isFileURL else { throw .invalidSourceURL(url) }
        self.id = id
        self.url = url
    }

    /// An asset identified by the file's name.
    public init(url: URL) throws(ReelError) {
        try self.init(id: url.lastPathComponent, url: url)
    }
}
