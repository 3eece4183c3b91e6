internal import CFFmpeg
import Foundation
import ReelSupport

/// Every picture of a video stream as its packets state it (no decoding): presentation times,
/// keyframes and sizes, for planning cuts that land exactly on frames.
package struct FrameTimeline: Sendable, Equatable {
    /// Presentation times of the pictures, in order, on the API's timeline (seconds from the
    /// container's start, exact in the stream's time base).
    package var frameTimes: [MediaTime]
    /// Presentation times of the keyframes, in order.
    package var keyframeTimes: [MediaTime]
    /// Bytes of each picture's packet, in the order of `frameTimes`.
    package var frameBytes: [Int]
    /// Where the last picture ends (its time plus its duration), on the API's timeline.
    package var end: MediaTime

    /// Reads every packet of `source`'s video stream `streamIndex`.
    package static func read(
        _ source: MediaInfo, streamIndex: Int, shouldCancel: () -> Bool
    ) throws(MediaFailure) -> FrameTimeline {
        let input = try InputFile.reopen(source, keeping: [streamIndex])
        guard let stream = input.stream(streamIndex) else {
            throw .failed(.demux, "stream", "the file has no stream \(streamIndex)")
        }
        let timeBase = stream.pointee.time_base
        let origin = MediaTime(seconds: source.startTime, timescale: 1_000_000)
        var pictures: [(ticks: Int64, bytes: Int, key: Bool, duration: Int64)] = []
        let packet = try Packet()
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if shouldCancel() { throw .cancelled }
            guard packet.streamIndex == streamIndex, !packet.isCorrupt,
                  let ticks = packet.presentationTimestamp ?? packet.dts else { continue }
            pictures.append((ticks, packet.size, packet.isKeyframe, max(packet.duration, 0)))
        }
        pictures.sort { $0.ticks < $1.ticks }
        func time(_ ticks: Int64) -> MediaTime {
            MediaTime(value: ticks * Int64(timeBase.num), timescale: timeBase.den) - origin
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
