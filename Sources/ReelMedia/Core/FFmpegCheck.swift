internal import CFFmpeg
import ReelSupport

extension MediaFailure {
    /// An FFmpeg call of `stage` returned the error `code`; the message is FFmpeg's own.
    static func ffmpeg(_ stage: Stage, _ operation: String, code: Int32) -> MediaFailure {
        .failed(stage, operation: operation, message: errorText(code), code: code)
    }

    /// A failure of `stage` that is not an FFmpeg error code.
    static func failed(_ stage: Stage, _ operation: String, _ message: String) -> MediaFailure {
        .failed(stage, operation: operation, message: message, code: nil)
    }

    /// Whether FFmpeg found the data invalid (a corrupt packet, say), as opposed to a failure
    /// of the call itself.
    var isInvalidData: Bool {
        guard case .failed(_, _, _, let code?) = self else { return false }
        return code == reel_averror_invaliddata()
    }

    /// `av_strerror` as a Swift string.
    static func errorText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let found = buffer.withUnsafeMutableBufferPointer { pointer -> Bool in
            guard let base = pointer.baseAddress else { return false }
            return av_strerror(code, base, pointer.count) == 0
        }
        guard found else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Throws the failure of an FFmpeg call of `stage` when it returned a negative code; returns
/// the code otherwise.
@discardableResult
func check(_ code: Int32, _ stage: MediaFailure.Stage, _ operation: @autoclosure () -> String) throws(MediaFailure) -> Int32 {
    if code < 0 { throw MediaFailure.ffmpeg(stage, operation(), code: code) }
    return code
}

/// Throws `outOfMemory` when an FFmpeg allocation returned nothing.
func allocated<Pointer>(_ pointer: Pointer?, _ operation: @autoclosure () -> String) throws(MediaFailure) -> Pointer {
    guard let pointer else { throw MediaFailure.outOfMemory(operation: operation()) }
    return pointer
}
