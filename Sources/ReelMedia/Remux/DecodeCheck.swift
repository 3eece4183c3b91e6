import Foundation
import ReelSupport

/// What decoding the first frames of a file's video stream shows: a stream copy's output is
/// checked this way before it is kept, since copying never decodes and a muxer accepts packets
/// no decoder can use.
package struct DecodeCheck: Sendable, Equatable {
    /// Frames decoded (at most the limit asked for).
    package var frames: Int
    /// Size of the decoded pictures (0 when none decoded).
    package var width: Int
    package var height: Int
    /// Packets the decoder rejected on the way.
    package var corruptPackets: Int

    /// Decodes the video stream of `url` from its start until `frameLimit` frames came out or
    /// the stream ended.
    package static func run(url: URL, frameLimit: Int, shouldCancel: () -> Bool) throws(MediaFailure) -> DecodeCheck {
        let input = try InputFile(url: url, probing: false)
        guard let index = input.bestVideoStream else { throw .noVideoStream }
        input.discardStreams(except: [index])
        let decoder = try Decoder(input: input, streamIndex: index)
        var check = DecodeCheck(frames: 0, width: 0, height: 0, corruptPackets: 0)
        try decoder.forEachFrame(in: input, shouldCancel: shouldCancel) { frame throws(MediaFailure) in
            if check.frames == 0 {
                check.width = Int(frame.width)
                check.height = Int(frame.height)
            }
            check.frames += 1
            return check.frames < frameLimit
        }
        check.corruptPackets = decoder.corruptPackets
        return check
    }
}
