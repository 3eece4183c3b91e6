import Foundation
import ReelSupport

extension MediaInfo {
    /// Opens `url` and describes its container and streams.
    public static func probe(_ url: URL) throws(ReelError) -> MediaInfo {
        try SourceCheck.requireReadableFile(url)
        do {
            let input = try InputFile(url: url)
            return try MediaProbe.describe(input)
        } catch {
            throw ReelError.unreadableSource(url, reason: error.description)
        }
    }
}
