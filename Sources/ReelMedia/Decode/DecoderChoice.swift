internal import CFFmpeg

/// Which FFmpeg decoder reads a codec. FFmpeg 5.1 picks the first one registered, which for AV1
/// in Debian's build is libdav1d already; asking for it by name keeps AV1 on dav1d (libaom-av1
/// took 2.5-3x its CPU time on 720p; FFmpeg's native `av1` decodes only with hardware) should
/// a build register another first.
package enum DecoderChoice {
    /// The decoders preferred for a codec, in order, before FFmpeg's own choice.
    private static let preferred: [AVCodecID: [String]] = [AV_CODEC_ID_AV1: ["libdav1d"]]

    /// The decoder for `id`: a preferred one this build has, else FFmpeg's choice.
    static func decoder(for id: AVCodecID) -> UnsafePointer<AVCodec>? {
        for name in preferred[id] ?? [] {
            if let codec = avcodec_find_decoder_by_name(name) { return codec }
        }
        return avcodec_find_decoder(id)
    }

    /// The name of the decoder `decoder(for:)` picks for the codec named `codecName` (as
    /// FFmpeg names codecs, e.g. `av1`), or `nil` when this build cannot decode it.
    package static func decoderName(forCodec codecName: String) -> String? {
        guard let descriptor = avcodec_descriptor_get_by_name(codecName),
              let codec = decoder(for: descriptor.pointee.id) else { return nil }
        return String(cString: codec.pointee.name)
    }
}
