import Foundation
import ReelSupport

/// Whether the joins of an edit would be jump cuts: the picture on both sides of a join looks
/// nearly the same (a fixed camera on one scene), so people and things would jump in place.
package enum JoinLooks {
    /// Mean signature difference (0...1) under which the two sides of a join show the same
    /// framing. Joins between scenes of a film measure 0.07-0.27; a fixed surveillance camera
    /// 15-25 s apart 0.012-0.018.
    static let sameFraming = 0.035
    /// Or: at least this share of the signature's blocks unchanged (within `StillEnds.stillness`)
    /// across the join: the same background with someone large in front of it, who would
    /// teleport. A fixed camera over a table whose visitors stand close (one-by-one) keeps
    /// 0.89-0.91 of its blocks across a join (mean difference 0.024-0.038); joins between shots
    /// of a film 0.04-0.44, and 0.63 where two shots of one scene share a tree and the sky.
    static let sameBackground = 0.8

    /// For each join between consecutive `ranges` (in output order), whether it joins two
    /// pictures of the same framing, judged from the analysis's samples next to each side of
    /// the join (false where a side has no sample). A reel dissolves those joins and cuts the
    /// others: a scene change stays a cut beside a jump that dissolves.
    package static func jumpCuts(_ ranges: [TimeRange], in analysis: VideoAnalysis) -> [Bool] {
        zip(ranges, ranges.dropFirst()).map { before, after in
            guard let last = analysis.samples.last(where: { $0.time < before.end && $0.time >= before.start }),
                  let first = analysis.samples.first(where: { $0.time >= after.start && $0.time < after.end }) else {
                return false
            }
            return PictureMeasurer.difference(last.signature, first.signature) < sameFraming
                || unchangedShareAfterExposure(last.signature, first.signature) >= sameBackground
        }
    }

    /// Largest typical change of the luma blocks (0-255) taken for the camera's exposure rather
    /// than a change of scene or light: one-by-one's steps measure about 20.
    static let largestExposureStep = 32

    /// `StillEnds.unchangedShare` once the luma blocks' typical (median) change is taken out, up
    /// to `largestExposureStep`: a camera's automatic exposure brightens the whole background
    /// when someone dark fills the middle (one-by-one: 20 levels brighter with a man in black
    /// at the table than with the table empty), which would otherwise read as a new scene.
    static func unchangedShareAfterExposure(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let lumaBlocks = SampledFrameCollector.lumaBlocks
        guard a.count == b.count, a.count > lumaBlocks else { return StillEnds.unchangedShare(a, b) }
        let shifts = zip(a.prefix(lumaBlocks), b.prefix(lumaBlocks)).map { Int($1) - Int($0) }.sorted()
        let typical = shifts[shifts.count / 2]
        return StillEnds.unchangedShare(a, b, lumaShift: abs(typical) <= largestExposureStep ? typical : 0)
    }
}
