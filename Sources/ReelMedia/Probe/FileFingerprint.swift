internal import CFFmpeg
import Foundation
import ReelSupport

/// Identifies a file cheaply: its size and the SHA-256 of its first mebibyte, so a plan made
/// for one file is not used on another (or on a changed copy).
package enum FileFingerprint {
    /// How much of the file's start is hashed.
    package static let hashedBytes = 1 << 20

    /// The lowercase hex SHA-256 of the first `hashedBytes` of `url` (all of a smaller file).
    package static func headHash(of url: URL) throws(ReelError) -> String {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: hashedBytes) ?? Data()
        } catch {
            throw .unreadableSource(url, reason: "cannot read the file: \(error.localizedDescription)")
        }
        return sha256(data)
    }

    /// The lowercase hex SHA-256 of `data` (libavutil's implementation).
    package static func sha256(_ data: Data) -> String {
        guard let context = av_sha_alloc() else { return "" }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        av_sha_init(context, 256)
        data.withUnsafeBytes { bytes in
            if let base = bytes.bindMemory(to: UInt8.self).baseAddress { av_sha_update(context, base, bytes.count) }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
