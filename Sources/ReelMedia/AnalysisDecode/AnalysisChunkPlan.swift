internal import CFFmpeg
import Foundation

/// A span of the video stream, keyframe to keyframe, that one worker decodes on its own:
/// the frames with `start <= pts < end` (in the stream's time base; `nil` is open-ended).
struct AnalysisChunk: Sendable, Equatable {
    var index: Int
    var start: Int64?
    var end: Int64?
    /// Roughly how many bytes of the file the chunk spans: decoding cost follows bit rate.
    var estimatedBytes: Int64 = 0
    /// Where decoding starts: at `start`, or earlier when the keyframe at `start` cannot be
    /// decoded from (a recovery point flagged as a keyframe); frames before `start` are only
    /// decoded, not measured.
    var leadIn: LeadIn = .none

    /// An earlier place to start decoding a chunk from.
    enum LeadIn: Sendable, Equatable {
        /// At the chunk's own start.
        case none
        /// At this earlier keyframe (stream time base).
        case keyframe(Int64)
        /// At the beginning of the file.
        case fileStart
    }
}

/// Splits a video stream into chunks that start on keyframes, so several decoders can each
/// take a chunk and together decode every frame exactly once.
enum AnalysisChunkPlan {
    /// Below this many seconds per chunk the work is not worth splitting.
    static let minimumChunkSeconds = 4.0
    /// More chunks than workers keeps the workers busy when some parts decode slower (noise,
    /// high bit rates) than others.
    static let chunksPerWorker = 16

    /// Chunks covering the whole stream: one when the file is short, cannot seek (a raw stream,
    /// timestamps that jump), or has a single keyframe; otherwise up to `workers * chunksPerWorker`.
    static func chunks(
        of input: InputFile, stream: ProbedStream, duration: Double, fileSize: Int64, workers: Int
    ) -> [AnalysisChunk] {
        let wanted = min(workers * chunksPerWorker, Int(duration / minimumChunkSeconds))
        let videoIndex = stream.index
        guard workers > 1, wanted > 1, input.seeksByTime else { return [AnalysisChunk(index: 0, start: nil, end: nil)] }
        let timeBase = stream.timeBase
        guard timeBase.num > 0, timeBase.den > 0 else { return [AnalysisChunk(index: 0, start: nil, end: nil)] }
        let origin = stream.startTimestamp ?? 0
        let ticks = duration * Double(timeBase.den) / Double(timeBase.num)
        var boundaries: [(pts: Int64, position: Int64)] = []
        for part in 1..<wanted {
            let target = origin + Int64(ticks * Double(part) / Double(wanted))
            guard let keyframe = keyframe(in: input, videoIndex: videoIndex, atOrBefore: target) else {
                return [AnalysisChunk(index: 0, start: nil, end: nil)]
            }
            if keyframe.pts > (boundaries.last?.pts ?? origin) { boundaries.append(keyframe) }
        }
        var chunks: [AnalysisChunk] = []
        var start: (pts: Int64, position: Int64)?
        for boundary in boundaries {
            chunks.append(AnalysisChunk(
                index: chunks.count, start: start?.pts, end: boundary.pts,
                estimatedBytes: boundary.position - (start?.position ?? 0)))
            start = boundary
        }
        chunks.append(AnalysisChunk(
            index: chunks.count, start: start?.pts, end: nil,
            estimatedBytes: fileSize - (start?.position ?? 0)))
        return chunks
    }

    /// The presentation time and file position of the keyframe a seek to `target` lands on, or
    /// `nil` when the file cannot seek there, or a seek to that keyframe does not land exactly
    /// on it (demuxers without an index, like MPEG-TS, seek only approximately; a chunk
    /// starting elsewhere would lose or garble frames).
    private static func keyframe(in input: InputFile, videoIndex: Int, atOrBefore target: Int64) -> (pts: Int64, position: Int64)? {
        guard let found = firstVideoPacket(in: input, videoIndex: videoIndex, seekingTo: target, keyframeOnly: true),
              let landed = firstVideoPacket(in: input, videoIndex: videoIndex, seekingTo: found.pts, keyframeOnly: false),
              landed.isKeyframe, landed.pts == found.pts
        else { return nil }
        return (found.pts, found.position)
    }

    /// The first video packet (or keyframe) after seeking to `target`.
    private static func firstVideoPacket(
        in input: InputFile, videoIndex: Int, seekingTo target: Int64, keyframeOnly: Bool
    ) -> (pts: Int64, position: Int64, isKeyframe: Bool)? {
        do {
            try input.seek(stream: videoIndex, toTimestamp: target)
            let packet = try Packet()
            for _ in 0..<2_000 {
                guard try input.read(into: packet) else { return nil }
                defer { packet.unreference() }
                guard packet.streamIndex == videoIndex, let pts = packet.presentationTimestamp else { continue }
                if packet.isKeyframe || !keyframeOnly { return (pts, packet.position, packet.isKeyframe) }
            }
            return nil
        } catch {
            return nil
        }
    }
}
