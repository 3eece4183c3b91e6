import CFFmpeg

/// A failed FFmpeg call: the operation, the pipeline stage it belongs to, and FFmpeg's own
/// words for the error code.
struct FFmpegFailure: Error, CustomStringConvertible {
    /// Where in the pipeline a call sits, so errors can name the right file and cause.
    enum Stage {
        /// Opening or reading the source container.
        case demux
        /// Decoding the source.
        case decode
        /// Filtering, encoding or anything else on the way to the output.
        case encode
        /// Writing the output container.
        case mux
    }

    let operation: String
    let code: Int32
    let message: String
    let stage: Stage

    init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        self.message = Self.text(for: code)
        self.stage = Self.stage(of: operation)
    }

    init(_ operation: String, message: String) {
        self.operation = operation
        self.code = reel_averror_einval()
        self.message = message
        self.stage = Self.stage(of: operation)
    }

    /// The stage of an FFmpeg function by its name (the operation starts with it).
    private static func stage(of operation: String) -> Stage {
        let name = operation.prefix { $0 != " " }
        switch name {
        case "avformat_open_input", "avformat_find_stream_info", "av_read_frame", "avformat_seek_file",
             "av_find_best_stream":
            return .demux
        case "avcodec_send_packet", "avcodec_receive_frame", "avcodec_find_decoder", "avcodec_parameters_to_context",
             "open", "decode":
            return .decode
        case "avformat_alloc_output_context2", "avformat_new_stream", "avio_open", "avformat_write_header",
             "av_interleaved_write_frame", "av_write_trailer", "avcodec_parameters_from_context":
            return .mux
        case "avcodec_open2":
            return operation.contains("(decoder)") ? .decode : .encode
        default:
            return .encode
        }
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
