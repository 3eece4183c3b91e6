internal import CFFmpeg
import Foundation
import ReelSupport

/// A decoded picture as packed 8-bit RGB, upright, for detectors that want plain pixels.
package struct RGBPicture: Sendable {
    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// `width * height * 3` bytes, row after row, red green blue.
    package let pixels: [UInt8]
    /// When the picture is shown, for a video frame.
    package let time: MediaTime?

    /// Creates the value from every field.
    package init(
        width: Int,
        height: Int,
        pixels: [UInt8],
        time: MediaTime?
    ) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.time = time
    }
}

/// Reads pictures for face detection and closer looks: a photo's one picture, or a video's
/// frame at a time, upright (display rotation applied), with square pixels, and scaled so the
/// longer side is at most `maximumSide`. `ShotSampler` samples a video's pictures through its
/// shots.
package enum PictureReader {
    /// The picture of an image file (JPEG, PNG, ...; the first frame of anything FFmpeg opens).
    package static func image(at url: URL, maximumSide: Int) throws(MediaFailure) -> RGBPicture {
        let input = try InputFile(url: url)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO) else { throw .noVideoStream }
        let decoder = try Decoder(input: input, streamIndex: index)
        let converter = PictureConverter(rotation: input.rotation(ofStream: index), maximumSide: maximumSide)
        var picture: RGBPicture?
        try decoder.forEachFrame(in: input) { frame throws(MediaFailure) in
            picture = try converter.convert(frame, timeBase: decoder.timeBase, time: nil)
            return false
        }
        guard let picture else { throw .failed(.decode, "decode", "no picture could be decoded") }
        return picture
    }

    /// The video frame on screen at `seconds` from the video's start (the last frame starting
    /// at or before it), scaled down to `maximumSide` (`nil`: its stored size), turned by the
    /// display rotation unless `upright` is false; from video stream `stream` when given.
    package static func frame(of source: MediaInfo, at seconds: Double, maximumSide: Int?,
                              upright: Bool = true, stream: Int? = nil) throws(MediaFailure) -> RGBPicture {
        guard let picture = try frames(of: source, at: [seconds], maximumSide: maximumSide, upright: upright, stream: stream).first
        else { throw .failed(.decode, "decode", "no picture could be decoded") }
        return picture
    }

    /// `frame(of:at:...)` at each of `times`, in the order asked, decoded in one pass in time
    /// order (`Decoder.visitFramesOnScreen`): pictures of one GOP cost one decode of it.
    package static func frames(of source: MediaInfo, at times: [Double], maximumSide: Int?,
                               upright: Bool = true, stream: Int? = nil) throws(MediaFailure) -> [RGBPicture] {
        guard let index = stream ?? source.primaryVideoStreamIndex else { throw .noVideoStream }
        let input = try InputFile.reopen(source, keeping: [index])
        // One thread: a concealed picture is only known by the error it logs (`frameOnScreen`).
        let decoder = try Decoder(input: input, streamIndex: index, threads: 1)
        // Times are on the API's timeline, whose zero is the file's start.
        let start = source.startTime
        let rotation = source.streams.first { $0.index == index }?.video?.rotation ?? 0
        let converter = PictureConverter(rotation: upright ? rotation : 0, maximumSide: maximumSide)
        var pictures = [RGBPicture?](repeating: nil, count: times.count)
        try decoder.visitFramesOnScreen(at: times.map { start + $0 }, in: input, fileStart: start) { position, frame, time throws(MediaFailure) in
            // A file that starts at zero keeps the frame's exact time: subtracting a zero in
            // microseconds would round a 1001/30000 clock to microseconds.
            let onTimeline = start == 0 ? time : time - MediaTime(seconds: start, timescale: 1_000_000)
            pictures[position] = try converter.convert(frame, timeBase: decoder.timeBase, time: onTimeline)
        }
        return try pictures.map { picture throws(MediaFailure) in
            guard let picture else { throw .failed(.decode, "decode", "no picture could be decoded") }
            return picture
        }
    }
}

/// Turns decoded frames into upright, scaled packed RGB with one filter graph per geometry.
final class PictureConverter {
    let rotation: Int
    /// The longest side a picture keeps (at least 16), or `nil` for the stored size.
    let maximumSide: Int?
    /// A smaller picture is enlarged towards `maximumSide`, at most this many times (1: never).
    let enlargement: Int
    private var graph: FilterGraph?
    private var geometry: (width: Int32, height: Int32, format: Int32)?
    private let output: Frame?

    init(rotation: Int, maximumSide: Int?, enlargement: Int = 1) {
        self.rotation = rotation
        self.maximumSide = maximumSide.map { max($0, 16) }
        self.enlargement = max(enlargement, 1)
        output = try? Frame()
    }

    func convert(_ frame: Frame, timeBase: AVRational, time: MediaTime?) throws(MediaFailure) -> RGBPicture {
        guard let output else { throw .outOfMemory(operation: "av_frame_alloc") }
        let current = (frame.width, frame.height, frame.format)
        if graph == nil || geometry.map({ $0 != current }) ?? true {
            graph = try makeGraph(for: frame, timeBase: timeBase)
            geometry = current
        }
        guard let graph else { throw .outOfMemory(operation: "avfilter_graph_alloc") }
        try graph.push(frame)
        guard try graph.pull(into: output) == .produced, let plane = output.plane(0) else {
            throw .failed(.filter, "av_buffersink_get_frame", "the picture could not be converted")
        }
        defer { output.unreference() }
        let width = Int(output.width), height = Int(output.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in 0..<height {
                (base + row * width * 3).update(from: plane.data + row * plane.lineSize, count: width * 3)
            }
        }
        return RGBPicture(width: width, height: height, pixels: pixels, time: time)
    }

    private func makeGraph(for frame: Frame, timeBase: AVRational) throws(MediaFailure) -> FilterGraph {
        var chain: [String] = []
        if frame.isInterlaced { chain.append(FilterGraph.stillDeinterlaceFilter) }
        // A picture scaled for looking at (faces, eyes) has square pixels, so faces on
        // anamorphic video keep their real shape; at its stored size it keeps its pixels.
        if maximumSide != nil, abs(frame.pixelAspect - 1) > 1e-3 {
            chain.append("scale='trunc(iw*sar/2)*2':ih:flags=bicubic,setsar=1")
        }
        if rotation % 360 != 0 { chain.append(FilterGraph.rotationFilter(clockwise: rotation)) }
        if let side = maximumSide {
            let longer = Int(max(frame.width, frame.height))
            if enlargement > 1, longer < side {
                let target = min(longer * enlargement, side)
                chain.append("scale=w='if(gt(iw,ih),\(target),-2)':h='if(gt(iw,ih),-2,\(target))':flags=bicubic")
            } else {
                chain.append("scale=w='if(gt(iw,ih),min(iw,\(side)),-2)':h='if(gt(iw,ih),-2,min(ih,\(side)))':flags=area")
            }
        }
        chain.append("format=rgb24")
        return try FilterGraph(isVideo: true, sourceArguments: FilterGraph.videoSourceArguments(for: frame, timeBase: timeBase),
                               description: chain.joined(separator: ","), threads: 1)
    }
}
