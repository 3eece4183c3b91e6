internal import CFFmpeg
import Foundation
import ReelSupport

/// Every picture of a video stream with the time the transcoder gives it: presentation times,
/// keyframes and sizes, for planning cuts that land exactly on pictures.
package struct FrameTimeline: Sendable, Equatable {
    /// Presentation times of the pictures, in order, on the API's timeline (seconds from the
    /// container's start, exact in the stream's time base).
    package var frameTimes: [MediaTime]
    /// Presentation times of the keyframes, in order.
    package var keyframeTimes: [MediaTime]
    /// Bytes of each picture's packet, in the order of `frameTimes` (by decode order when the
    /// times came from decoding).
    package var frameBytes: [Int]
    /// Where the last picture ends (its time plus its duration), on the API's timeline.
    package var end: MediaTime
    /// Whether the file's timestamps jump (an MPEG-TS joined from recordings): read from the
    /// start they are joined into one clock, but a reader that seeks sees the file's own.
    package var timestampsJump = false

    /// Reads every packet of `source`'s video stream `streamIndex`. Packets without
    /// presentation times (AVI stores decode order only, B frames packed) do not say when the
    /// decoder will show each picture: then the stream is decoded, and the decoder's times
    /// (as the transcoder sees them) are taken.
    package static func read(
        _ source: MediaInfo, streamIndex: Int, shouldCancel: () -> Bool
    ) throws(MediaFailure) -> FrameTimeline {
        let input = try InputFile.reopen(source, keeping: [streamIndex])
        guard let stream = input.stream(streamIndex) else {
            throw .failed(.demux, "stream", "the file has no stream \(streamIndex)")
        }
        let timeBase = stream.pointee.time_base
        var pictures: [Picture] = []
        var untimed = false
        let packet = try Packet()
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if shouldCancel() { throw .cancelled }
            guard packet.streamIndex == streamIndex, !packet.isCorrupt else { continue }
            if packet.pts == nil { untimed = true }
            guard let ticks = packet.presentationTimestamp ?? packet.dts else { continue }
            pictures.append(Picture(ticks: ticks, bytes: packet.size, key: packet.isKeyframe, duration: max(packet.duration, 0)))
        }
        if untimed {
            let sizes = pictures.map(\.bytes)
            // A fresh demuxer, as the transcoder's: after a rewind by bytes AVI's first packets
            // come without times.
            let decoding = try InputFile(url: source.url)
            decoding.discardStreams(except: [streamIndex])
            pictures = try decodedPictures(decoding, streamIndex: streamIndex, shouldCancel: shouldCancel)
            for index in pictures.indices where index < sizes.count { pictures[index].bytes = sizes[index] }
        }
        var timeline = timeline(of: untimed ? pictures : shownInOrder(pictures), timeBase: timeBase,
                                origin: MediaTime(seconds: source.startTime, timescale: 1_000_000))
        timeline.timestampsJump = input.hasJoinedTimestampJumps
        return timeline
    }

    private struct Picture {
        var ticks: Int64
        var bytes: Int
        var key: Bool
        var duration: Int64
    }

    /// Packets (in decode order) in the order a decoder shows their pictures: from one keyframe
    /// to the next by time, and a picture timed at or before one shown before it left out, as
    /// the transcoder leaves it out. Files joined without re-timing (ffmpeg's concat demuxer
    /// over recordings of different rates) have such pictures; for any other file this is the
    /// pictures sorted by time.
    private static func shownInOrder(_ packets: [Picture]) -> [Picture] {
        var shown: [Picture] = []
        shown.reserveCapacity(packets.count)
        var group: [Picture] = []
        func flush() {
            for picture in group.sorted(by: { $0.ticks < $1.ticks }) where shown.last.map({ $0.ticks < picture.ticks }) ?? true {
                shown.append(picture)
            }
            group.removeAll(keepingCapacity: true)
        }
        for packet in packets {
            if packet.key { flush() }
            group.append(packet)
        }
        flush()
        return shown
    }

    /// The pictures as the decoder gives them (untimed ones timed as the transcoder times them).
    private static func decodedPictures(
        _ input: InputFile, streamIndex: Int, shouldCancel: () -> Bool
    ) throws(MediaFailure) -> [Picture] {
        let decoder = try Decoder(input: input, streamIndex: streamIndex)
        decoder.timesUntimedFrames = true
        var pictures: [Picture] = []
        try decoder.forEachFrame(in: input, shouldCancel: shouldCancel) { frame throws(MediaFailure) in
            if let ticks = frame.presentationTimestamp {
                pictures.append(Picture(ticks: ticks, bytes: 0, key: frame.isKeyframe, duration: max(frame.decodedDuration, 0)))
            }
            return true
        }
        return pictures
    }

    private static func timeline(of unsorted: [Picture], timeBase: AVRational, origin: MediaTime) -> FrameTimeline {
        let pictures = unsorted.sorted { $0.ticks < $1.ticks }
        // Exact in the stream's time base when the container starts at 0 (a time base and
        // microseconds have no common scale within Int32 for 125/2997).
        func time(_ ticks: Int64) -> MediaTime {
            let exact = MediaTime(value: ticks * Int64(timeBase.num), timescale: timeBase.den)
            return origin.value == 0 ? exact : exact - origin
        }
        var timeline = FrameTimeline(frameTimes: [], keyframeTimes: [], frameBytes: [], end: .zero)
        timeline.frameTimes.reserveCapacity(pictures.count)
        for picture in pictures where timeline.frameTimes.last.map({ $0 < time(picture.ticks) }) ?? true {
            timeline.frameTimes.append(time(picture.ticks))
            timeline.frameBytes.append(picture.bytes)
            if picture.key { timeline.keyframeTimes.append(time(picture.ticks)) }
        }
        if let last = pictures.last {
            let duration = last.duration > 0 ? last.duration : typicalStep(pictures.map(\.ticks))
            timeline.end = time(last.ticks + duration)
        }
        return timeline
    }

    /// The most common distance between neighbouring timestamps (one frame), 1 when unknown.
    private static func typicalStep(_ ticks: [Int64]) -> Int64 {
        var counts: [Int64: Int] = [:]
        for (earlier, later) in zip(ticks, ticks.dropFirst()) where later > earlier { counts[later - earlier, default: 0] += 1 }
        return counts.max { $0.value < $1.value }?.key ?? 1
    }
}
