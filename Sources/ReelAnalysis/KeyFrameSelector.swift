import ReelMedia
import ReelSupport

/// Picks the frame that best represents a video.
///
/// Sampled frames that are blank, inside a transition, or right at a cut are left out. The rest
/// are grouped by appearance (a coarse color layout); each group weighs as much as its screen
/// time. In the largest group, the sharpest, best exposed, steadiest frame wins.
enum KeyFrameSelector {
    static let groupingDistance = 0.07

    static func select(frames: [FrameFeatures], signatures: [[UInt8]], boundaries: [ShotBoundary]) -> MediaTime? {
        guard !frames.isEmpty else { return nil }
        let transitions = boundaries.compactMap(\.transition)
        let cuts = boundaries.filter { $0.kind == .cut }.map(\.time)
        let candidates = frames.indices.filter { index in
            let frame = frames[index]
            if frame.isBlank { return false }
            if transitions.contains(where: { $0.contains(frame.time) }) { return false }
            // The samples on both sides of a cut may straddle it or show a compression burst.
            if cuts.contains(where: { abs($0.seconds - frame.time.seconds) < 0.25 }) { return false }
            return true
        }
        guard !candidates.isEmpty else {
            let brightest = frames.indices.max { frames[$0].brightness < frames[$1].brightness }
            return brightest.map { frames[$0].time }
        }
        var leaders: [Int] = []
        var members: [[Int]] = []
        for index in candidates {
            if let group = leaders.firstIndex(where: {
                PictureMeasurer.difference(signatures[$0], signatures[index]) < groupingDistance
            }) {
                members[group].append(index)
            } else {
                leaders.append(index)
                members.append([index])
            }
        }
        guard let largest = members.max(by: { $0.count < $1.count }) else { return nil }
        let best = largest.max { quality(frames[$0]) < quality(frames[$1]) }
        return best.map { frames[$0].time }
    }

    static func quality(_ frame: FrameFeatures) -> Double {
        let sharp = min(frame.sharpness / 0.08, 1)
        let exposure = max(0, 1 - abs(frame.brightness - 0.45) / 0.45)
        let contrast = min(frame.contrast / 0.2, 1)
        let steady = 1 - min(frame.change / 0.1, 1)
        return sharp * 0.4 + exposure * 0.25 + contrast * 0.15 + steady * 0.2
    }
}
