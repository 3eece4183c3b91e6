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

extension VideoAsset {
    /// The same video as a MediaIntelligence asset describes it (its id and file).
    public init(_ asset: MediaIntelligenceVideoAsset) throws(ReelError) {
        try self.init(id: asset.id.rawValue, url: asset.kind.url)
    }
}

extension VideoAnalyzer {
    /// `analyze(_:for:progressHandler:)` for a MediaIntelligence video asset: each request
    /// succeeds or fails on its own (an asset that is not a file fails them all); throws only
    /// when the task is cancelled.
    public func analyze<each Request: AnalysisRequest>(
        _ asset: MediaIntelligenceVideoAsset, for requests: repeat each Request,
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> (repeat Result<(each Request).Output, ReelError>) {
        let video: VideoAsset
        do {
            video = try VideoAsset(asset)
        } catch {
            return (repeat Self.failing(each requests, with: error))
        }
        return try await analyze(video, for: repeat each requests, progressHandler: progressHandler)
    }

    /// `analysis(of:progressHandler:)` for a MediaIntelligence video asset.
    public func analysis(
        of asset: MediaIntelligenceVideoAsset, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> VideoAnalysis {
        try await analysis(of: try VideoAsset(asset), progressHandler: progressHandler)
    }

    private static func failing<Request: AnalysisRequest>(_ request: Request, with error: ReelError) -> Result<Request.Output, ReelError> {
        .failure(error)
    }
}
