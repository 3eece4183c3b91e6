internal import CFFmpeg
import Foundation
import ReelSupport

/// Motion and detail measured on real pixels of a few frames spread over the source.
public struct ContentProfile: Sendable, Equatable, Codable {
    /// Mean luma change between consecutive frames, 0 (static) to 1.
    public var motion: Double
    /// Mean neighbouring-pixel luma difference, 0 (flat) to 1: texture and sharp edges.
    public var detail: Double
    /// How many frame pairs were measured.
    public var samples: Int
}

/// Decodes short bursts of frames at evenly spaced positions and measures them. Each burst
/// starts at the first picture that really exists at or after its position (sparse files, such
/// as AVIs whose index repeats or skips frames, have far fewer pictures than their header's rate
/// suggests). A burst the decode reaches more cheaply by going on (`InputFile.decodeGoesOn`) is
/// not sought, and on the way only the frames others refer to are decoded: a 4K file of one
/// ten-second GOP was decoded three times over before, now half of it once. Pictures are decoded
/// in full (loop filter on), as they are shown and as the framing pass decodes them, so bursts it
/// measures on its way agree with these; damaged pictures are left out.
package enum ContentSampler {
    /// Seconds of packets past a burst read after a seek before it is given up as landed
    /// where nothing decodes.
    static let landingSearch = 2.0

    /// Measures `positions` bursts of two consecutive frames between `start` and `end` seconds.
    package static func measure(
        source: MediaInfo, streamIndex: Int, start: Double, end: Double, positions: Int = 6,
        shouldCancel: () -> Bool
    ) throws(MediaFailure) -> ContentProfile {
        try measure(ContentBursts(start: start, end: end, count: positions), source: source, streamIndex: streamIndex,
                    shouldCancel: shouldCancel).profile
    }

    /// Measures the bursts of `bursts` not measured yet.
    package static func measure(
        _ bursts: ContentBursts, source: MediaInfo, streamIndex: Int, shouldCancel: () -> Bool
    ) throws(MediaFailure) -> ContentBursts {
        let missing = bursts.missing
        guard !missing.isEmpty else { return bursts }
        let input = try InputFile.reopen(source, keeping: [streamIndex])
        let decoder = try Decoder(input: input, streamIndex: streamIndex)
        // A raw stream's frames are counted to be timed, so it is read on from its start.
        decoder.timesUntimedFrames = !input.seeksByTime
        let recorder = ContentBurstRecorder(bursts)
        // The time of the last picture handed over, while the decoder may go on from there.
        var reached: Double?
        for index in missing {
            if shouldCancel() { throw .cancelled }
            let time = bursts.times[index]
            let goesOn = reached.map { input.decodeGoesOn(stream: streamIndex, from: $0, to: time) } ?? false
            // A seek must land before the burst for its first picture to be the burst's: one
            // that lands after it (MPEG-TS seeks only near a time) or past the keyframe it needs
            // (an MPEG-TS of one GOP decodes nothing, and is given up 2 s past the burst) starts
            // 1, 2, 4... s earlier, down to the file's start.
            var backoff = 0.0
            while true {
                var seekPoint = input.startSeconds
                if !goesOn {
                    seekPoint = max(time - backoff, input.startSeconds)
                    if seekPoint <= input.startSeconds { try input.rewind() } else { try input.seek(toSeconds: seekPoint) }
                    decoder.flushBuffers()
                }
                reached = nil
                // Landed well: on a keyframe at or before the burst, or before a picture decoded.
                var landedBefore = false, firstPacket = true
                recorder.begin(index)
                // Frames before the burst are only decoded when others refer to them.
                try decoder.forEachFrame(in: input, shouldCancel: shouldCancel, beforeSending: { packet in
                    if firstPacket, packet.isKeyframe, let pts = packet.presentationTimestamp,
                       decoder.time(ofTimestamp: pts).seconds <= time + 0.001 {
                        landedBefore = true
                    }
                    firstPacket = false
                    decoder.skipsUnseenFrames(packet, before: time, in: input, margin: 0.001)
                }, stopsAt: { packet in
                    guard !goesOn, recorder.awaitsFirstPicture, let pts = packet.presentationTimestamp else { return false }
                    return decoder.time(ofTimestamp: pts).seconds > time + Self.landingSearch
                }) { frame throws(MediaFailure) in
                    let seconds = decoder.time(of: frame)?.seconds
                    if let seconds { reached = seconds }
                    if recorder.isEarly(seconds) {
                        landedBefore = true
                        return true
                    }
                    return frame.isDamaged ? true : try recorder.take(frame)
                }
                if landedBefore || goesOn || seekPoint <= input.startSeconds { break }
                backoff = backoff == 0 ? 1 : backoff * 2
            }
            // Decoding ran to the file's end (or the pair was never found): nothing to go on from.
            if recorder.isOpen { reached = nil }
            recorder.close(keepingPartial: true)
        }
        return recorder.bursts
    }
}

/// A decoded picture converted, at its own size, to 8-bit planar YUV 4:2:0 (one reused frame).
final class PlanarPicture {
    private var context: OpaquePointer?
    private let output: Frame?

    init() { output = try? Frame() }

    deinit { sws_freeContext(context) }

    /// `frame` in planar YUV; valid until the next call.
    func converting(_ frame: Frame) throws(MediaFailure) -> Frame {
        guard let output else { throw .outOfMemory(operation: "av_frame_alloc") }
        let source = frame.pointer.pointee
        context = sws_getCachedContext(
            context, source.width, source.height, AVPixelFormat(rawValue: source.format),
            source.width, source.height, AV_PIX_FMT_YUV420P, SWS_POINT, nil, nil, nil)
        guard let context else { throw .failed(.filter, "sws_getCachedContext", "unsupported frame format") }
        if output.width != source.width || output.height != source.height || !output.hasBuffers {
            output.unreference()
            try output.allocatePicture(width: source.width, height: source.height, format: AV_PIX_FMT_YUV420P.rawValue, stage: .filter)
        }
        try check(sws_scale_frame(context, output.pointer, frame.pointer), .filter, "sws_scale_frame")
        return output
    }
}
