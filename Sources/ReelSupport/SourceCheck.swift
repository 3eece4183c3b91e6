import Foundation

/// Checks a source path before FFmpeg sees it, so missing and empty files get precise errors.
package enum SourceCheck {
    package static func requireReadableFile(_ url: URL) throws(ReelError) {
        guard url.isFileURL else { throw ReelError.invalidSourceURL(url) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ReelError.invalidSourceURL(url)
        }
        if isDirectory.boolValue { throw ReelError.unreadableSource(url, reason: "is a directory") }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw ReelError.unreadableSource(url, reason: "permission denied")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? 0
        if size == 0 { throw ReelError.unreadableSource(url, reason: "the file is empty") }
    }
}
