internal import CFFmpeg
import Foundation
import ReelSupport

/// Which frames an analysis decode may leave undecoded, ordered by how much is decoded: a
/// greater level decodes more.
package enum FrameSkipping: Int, Sendable, Comparable {
    /// Skip every bidirectionally predicted (B) frame: the cheapest decode that still sees the
    /// picture several times a GOP. Exact only where no I or P frame refers to a B frame
    /// (see `SkipCheck`).
    case bidirectional
    /// Skip frames no other frame refers to.
    case nonReference
    /// Decode every frame.
    case none

    /// The next level that decodes more frames, `nil` after `.none`.
    var fuller: FrameSkipping? { FrameSkipping(rawValue: rawValue + 1) }

    package static func < (lhs: FrameSkipping, rhs: FrameSkipping) -> Bool { lhs.rawValue < rhs.rawValue }

    var discard: AVDiscard {
        switch self {
        case .none: AVDISCARD_DEFAULT
        case .nonReference: AVDISCARD_NONREF
        case .bidirectional: AVDISCARD_BIDIR
        }
    }
}

/// Decides whether an analysis may skip every B frame of a stream, or only non-reference frames.
///
/// Skipping B frames is exact only when no I or P frame refers to a B frame. In H.264 that is
/// how encoders work (x264 even removes its referenced B frames from the list before the next P
/// frame); x265's P frames do refer to B frames, and FFmpeg then conceals the missing pictures
/// without flagging the frames. So B frames are skipped only in H.264, and only after a second
/// of the stream, decoded both ways, came out the same.
enum SkipCheck {
    /// The cheapest skipping to start a stream's chunks with, when `requested` is wanted.
    static func startingLevel(for stream: ProbedStream, requested: FrameSkipping) -> FrameSkipping {
        requested == .bidirectional && !stream.isH264 ? .nonReference : requested
    }

    /// Seconds of the stream compared: its reference structure repeats every few frames.
    static let seconds = 1.0

    /// Whether the frames of the second after `keyframe` (the start when `nil`; best somewhere
    /// in the middle, where the picture moves, since concealment is invisible on a still)
    /// decode the same with all B frames skipped as with only non-reference frames skipped.
    static func bidirectionalSkipIsExact(
        _ stream: ProbedStream, from keyframe: Int64? = nil, shouldStop: @escaping @Sendable () -> Bool
    ) throws(MediaFailure) -> Bool {
        let skipped = try frames(of: stream, from: keyframe, skipping: .bidirectional, shouldStop: shouldStop)
        let kept = try frames(of: stream, from: keyframe, skipping: .nonReference, shouldStop: shouldStop)
        return skipped.allSatisfy { pts, grid in kept[pts].map { $0 == grid } ?? true }
    }

    private static func frames(
        of stream: ProbedStream, from keyframe: Int64?, skipping: FrameSkipping, shouldStop: () -> Bool
    ) throws(MediaFailure) -> [Int64: LumaGrid] {
        let input = try InputFile.reopen(stream)
        if let keyframe { try input.seek(stream: stream.index, toTimestamp: keyframe) }
        let decoder = try Decoder(input: input, streamIndex: stream.index, cheap: true, threads: 1)
        decoder.setSkipFrames(skipping.discard)
        var grids: [Int64: LumaGrid] = [:]
        var first: Double?
        try decoder.forEachFrame(in: input, shouldCancel: shouldStop) { frame throws(MediaFailure) in
            guard let time = decoder.time(of: frame), let pts = frame.presentationTimestamp,
                  pts >= keyframe ?? Int64.min else { return true }
            let start = first ?? time.seconds
            first = start
            if let grid = LumaGrid(frame: frame.pointer, patch: AnalysisReader.changePatch) { grids[pts] = grid }
            return time.seconds - start < seconds
        }
        return grids
    }
}
