internal import CFFmpeg
import ReelSupport

/// An owned `AVCodecContext`; decoders and encoders wrap one and expose only what they need.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    init(codec: UnsafePointer<AVCodec>) throws(MediaFailure) {
        pointer = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }
}

/// What a send or receive call on a codec produced: control flow, never an error.
enum CodecStep {
    /// A frame or packet was produced.
    case produced
    /// The codec needs more input before it can produce anything.
    case needsInput
    /// The codec is fully drained.
    case endOfStream
}

/// Classifies a receive call's return code; other errors are failures of `stage`.
func codecStep(_ code: Int32, _ stage: MediaFailure.Stage, _ operation: String) throws(MediaFailure) -> CodecStep {
    if code >= 0 { return .produced }
    if code == reel_averror_eagain() { return .needsInput }
    if code == reel_averror_eof() { return .endOfStream }
    throw .ffmpeg(stage, operation, code: code)
}
