import Foundation

/// Sizes of files on disk.
package enum FileSize {
    /// The size of the file at `url` in bytes, 0 when it cannot be read.
    package static func of(_ url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
