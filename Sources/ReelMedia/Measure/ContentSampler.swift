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
/// ten-second GOP was decoded three times over before, now half of it once.
package enum ContentSampler {
    /// Measures `positions` bursts of two consecutive frames between `start` and `end` seconds.
    package static func measure(
        source: MediaInfo, streamIndex: Int, start: Double, end: Double, positions: Int = 6,
        shouldCancel: () -> Bool
    ) throws(MediaFailure) -> ContentProfile {
        let input = try InputFile.reopen(source, keeping: [streamIndex])
        let decoder = try Decoder(input: input, streamIndex: streamIndex, cheap: true)
        // A raw stream's frames are counted to be timed, so it is read on from its start.
        decoder.timesUntimedFrames = !input.seeksByTime
        let planar = PlanarPicture()
        var motions: [Double] = []
        var details: [Double] = []
        let span = max(end - start, 0)
        // The time of the last picture handed over, while the decoder may go on from there.
        var reached: Double?
        for position in 0..<positions {
            if shouldCancel() { throw .cancelled }
            let time = start + span * (Double(position) + 0.5) / Double(positions)
            if !(reached.map { input.decodeGoesOn(stream: streamIndex, from: $0, to: time) } ?? false) {
                try input.seek(toSeconds: time)
                decoder.flushBuffers()
            }
            reached = nil
            var previous: LumaGrid?
            var pairFound = false
            // Frames before the burst are only decoded when others refer to them.
            try decoder.forEachFrame(in: input, shouldCancel: shouldCancel, beforeSending: {
                decoder.skipsUnseenFrames($0, before: time, in: input, margin: 0.001)
            }) { frame throws(MediaFailure) in
                if let pts = decoder.time(of: frame) {
                    reached = pts.seconds
                    if pts.seconds + 0.001 < time { return true }
                }
                // RGB and palette pictures (cinepak, PNG, MJPEG variants) are made planar first.
                var planarGrid = LumaGrid(frame: frame.pointer)
                if planarGrid == nil { planarGrid = LumaGrid(frame: try planar.converting(frame).pointer) }
                guard let grid = planarGrid else { return true }
                if let previous {
                    motions.append(grid.lumaDifference(to: previous))
                    details.append((grid.detail + previous.detail) / 2)
                    pairFound = true
                    return false
                }
                previous = grid
                return true
            }
            if !pairFound, let previous { details.append(previous.detail) }
            // Decoding ran to the file's end (or the pair was never found): nothing to go on from.
            if !pairFound { reached = nil }
        }
        func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        return ContentProfile(motion: mean(motions), detail: mean(details), samples: motions.count)
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
