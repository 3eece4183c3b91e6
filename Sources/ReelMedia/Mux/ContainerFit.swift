internal import CFFmpeg

/// Which codecs a container holds, as its FFmpeg muxer declares: a stream copy keeps the
/// source's codecs, and a muxer handed one it cannot hold fails with a bare "Invalid argument".
package enum ContainerFit {
    /// Whether the muxer `formatName` (`mp4`, `mov`, `matroska`, `webm`) can hold `codecName`
    /// (FFmpeg's name, `msmpeg4v3`, `pcm_s16le`); `true` when the muxer does not say.
    package static func holds(_ codecName: String, formatName: String) -> Bool {
        if refusedAtHeader[formatName]?.contains(codecName) == true { return false }
        guard let format = av_guess_format(formatName, nil, nil),
              let descriptor = avcodec_descriptor_get_by_name(codecName) else { return true }
        // 1: it can; 0: it cannot; negative: the muxer keeps no list.
        return avformat_query_codec(format, descriptor.pointee.id, FF_COMPLIANCE_NORMAL) != 0
    }

    /// Codecs a muxer lists as holding but refuses when it writes its header (FFmpeg 5.1's
    /// movenc: "vp9 only supported in MP4", "VP8 muxing is currently not supported", FLAC in
    /// MP4 "experimental").
    private static let refusedAtHeader: [String: Set<String>] = [
        "mov": ["vp8", "vp9", "av1", "opus", "flac", "truehd"],
        "mp4": ["flac"],
    ]
}
