import CFFmpeg

/// A failed FFmpeg call: the operation and FFmpeg's own words for the error code.
struct FFmpegFailure: Error, CustomStringConvertible {
    let operation: String
    let code: Int32
    let message: String

    init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        self.message = Self.text(for: code)
    }

    init(_ operation: String, message: String) {
        self.operation = operation
        self.code = reel_averror_einval()
        self.message = message
    }

    var description: String { "\(operation): \(message)" }

    /// `av_strerror` as a Swift string.
    static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let found = buffer.withUnsafeMutableBufferPointer { pointer -> Bool in
            guard let base = pointer.baseAddress else { return false }
            return av_strerror(code, base, pointer.count) == 0
        }
        guard found else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Throws an `FFmpegFailure` when an FFmpeg call returned a negative code; returns the code otherwise.
@discardableResult
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegFailure) -> Int32 {
    if code < 0 { throw FFmpegFailure(operation(), code: code) }
    return code
}

/// Silences FFmpeg's own logging once per process (x264 logs through it; x265 via its params).
enum FFmpegLogging {
    private static let configured: Bool = {
        av_log_set_level(AV_LOG_QUIET)
        return true
    }()

    static func silence() { _ = configured }
}
