import Foundation
import ReelSupport

/// Closer looks at one video's pictures, one time after another (the analysis's look for a
/// caption on its poster, then at the poster's eyes): the file stays open and the last frame
/// decoded is kept, so a second look at the same time, at another size, decodes nothing. On a
/// file of one long GOP each look decodes the GOP up to its time.
package final class PictureSession {
    private let source: MediaInfo
    private let index: Int
    private let input: InputFile
    private let decoder: Decoder
    private let rotation: Int
    /// The last frame decoded, and the time (file clock) it was asked for.
    private var last: (asked: Double, frame: Frame, time: MediaTime)?

    /// Opens the primary video of `source`.
    package init(source: MediaInfo) throws(MediaFailure) {
        guard let index = source.primaryVideoStreamIndex else { throw .noVideoStream }
        self.source = source
        self.index = index
        input = try InputFile.reopen(source, keeping: [index])
        // One thread: a concealed picture is only known by the error it logs (`frameOnScreen`).
        decoder = try Decoder(input: input, streamIndex: index, threads: 1)
        rotation = source.streams.first { $0.index == index }?.video?.rotation ?? 0
    }

    /// The frame on screen at `seconds` from the video's start, upright, its longer side at
    /// most `maximumSide`, as `PictureReader.frame(of:at:maximumSide:)` gives it.
    package func picture(at seconds: Double, maximumSide: Int?) throws(MediaFailure) -> RGBPicture {
        let start = source.startTime
        let target = start + seconds
        let frame: Frame, time: MediaTime
        if let last, last.asked == target {
            (frame, time) = (last.frame, last.time)
        } else {
            (frame, time) = try decoder.frameOnScreen(at: target, in: input, fileStart: start)
            last = (target, frame, time)
        }
        let converter = PictureConverter(rotation: rotation, maximumSide: maximumSide)
        let onTimeline = start == 0 ? time : time - MediaTime(seconds: start, timescale: 1_000_000)
        return try converter.convert(frame, timeBase: decoder.timeBase, time: onTimeline)
    }
}
