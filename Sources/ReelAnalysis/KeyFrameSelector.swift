import ReelSupport

/// Picks the frame that works best as the video's poster.
///
/// Sampled frames that are blank, text-like (titles, credits), inside a transition, or right at
/// a cut are left out. Each remaining frame is scored on picture quality (sharp against the
/// video's own typical sharpness, well exposed, contrasty, steady), on a subject being present
/// (a whole face not cut by the frame's edge where the face pass looked, else the
/// centre-surround subject cue), on nothing foreign to the shot being cut by the frame's edge
/// (`EdgeIntrusion`: a hand reaching in, a passer-by half out of the picture), and on coming
/// from an engaging part (`engaging`); frames of the video's recurring looks (appearance groups
/// with more screen time) get a small bonus. Each score is then averaged with the scores of
/// the samples around it (`steadied`), so the poster comes from a stretch that is good
/// throughout rather than from one sample that peaks between weaker ones.
enum KeyFrameSelector {
    static let groupingDistance = 0.07
    /// How far (seconds) a sample's neighbours count in `steadied`; at the default 6 samples a
    /// second, the samples on either side count half as much as the sample itself.
    static let steadySpan = 0.34

    static func select(frames: [FrameFeatures], signatures: [[UInt8]], boundaries: [ShotBoundary],
                       segments: [EngagementSegment] = []) -> MediaTime? {
        best(of: scores(frames: frames, signatures: signatures, boundaries: boundaries, segments: segments), in: frames)
    }

    /// The time of the best-scored sample of `scored` (from `scores`), or of the brightest frame
    /// when none qualified.
    static func best(of scored: [(index: Int, score: Double)], in frames: [FrameFeatures]) -> MediaTime? {
        guard !frames.isEmpty else { return nil }
        guard let best = scored.max(by: { $0.score < $1.score }) else {
            // Nothing qualifies (all blank, say): the brightest frame.
            let brightest = frames.indices.max { frames[$0].brightness < frames[$1].brightness }
            return brightest.map { frames[$0].time }
        }
        return frames[best.index].time
    }

    /// How much less a picture with a caption (`CaptionFinder`) counts as a poster.
    static let captionPenalty = 0.8
    /// Pictures decoded at most to look for captions.
    static let captionChecks = 6

    /// The time of the best of `scored` once captions are seen: candidates are looked at in
    /// score order, a picture with a caption counting `captionPenalty` of its score, until no
    /// one left could win (so a caption-free best costs one look). A caption found at a sample
    /// stands for the samples within half a second. When every candidate has a caption (burned-in
    /// subtitles), the best of them wins.
    static func best(of scored: [(index: Int, score: Double)], in frames: [FrameFeatures],
                     hasCaption: (MediaTime) -> Bool) -> MediaTime? {
        var winner: (time: MediaTime, score: Double)?
        var looked: [(time: Double, caption: Bool)] = []
        for candidate in scored.sorted(by: { $0.score > $1.score }) {
            if let winner, candidate.score <= winner.score { break }
            let time = frames[candidate.index].time
            let caption: Bool
            if let near = looked.first(where: { abs($0.time - time.seconds) <= 0.5 }) {
                caption = near.caption
            } else {
                guard looked.count < captionChecks else { break }
                caption = hasCaption(time)
                looked.append((time.seconds, caption))
            }
            let score = candidate.score * (caption ? captionPenalty : 1)
            if score > winner?.score ?? -1 { winner = (time, score) }
        }
        return winner?.time ?? best(of: scored, in: frames)
    }

    /// The poster score of every sample that may be a poster (see the type's summary).
    static func scores(frames: [FrameFeatures], signatures: [[UInt8]], boundaries: [ShotBoundary],
                       segments: [EngagementSegment]) -> [(index: Int, score: Double)] {
        let transitions = boundaries.compactMap(\.transition)
        let cuts = boundaries.filter { $0.kind == .cut }.map(\.time)
        let candidates = frames.indices.filter { index in
            let frame = frames[index]
            if frame.isBlank || frame.textLikeness > 0.5 { return false }
            if transitions.contains(where: { $0.contains(frame.time) }) { return false }
            // The samples on both sides of a cut may straddle it or show a compression burst.
            if cuts.contains(where: { abs($0.seconds - frame.time.seconds) < 0.25 }) { return false }
            return true
        }
        guard !candidates.isEmpty else { return [] }
        // Sharp against the video's own sharper frames (its 75th percentile), so a defocused or
        // motion-blurred picture loses to a crisp one of the same video.
        let sharpness = candidates.map { frames[$0].sharpness }.sorted()
        let typicalSharpness = max(sharpness[sharpness.count * 3 / 4], 0.005)
        var groupOf = [Int: Int]()
        var leaders: [Int] = []
        var sizes: [Int] = []
        for index in candidates where index < signatures.count {
            if let group = leaders.firstIndex(where: {
                PictureMeasurer.difference(signatures[$0], signatures[index]) < groupingDistance
            }) {
                sizes[group] += 1
                groupOf[index] = group
            } else {
                groupOf[index] = leaders.count
                leaders.append(index)
                sizes.append(1)
            }
        }
        let largest = Double(sizes.max() ?? 1)
        let intrusion = EdgeIntrusion.measure(frames: frames, signatures: signatures,
                                              boundaries: boundaries.map { $0.transition?.start ?? $0.time })
        var segmentIndex = 0
        var scored: [(index: Int, score: Double)] = []
        for index in candidates {
            let frame = frames[index]
            while segmentIndex < segments.count - 1 && segments[segmentIndex].timeRange.end <= frame.time { segmentIndex += 1 }
            let level = segments.isEmpty ? 4.5 : Double(segments[segmentIndex].level)
            // From an engaging part: a segment at the highlight level (6) or above counts fully,
            // a calmer one less the calmer it is. Above that level the picture decides: the peak
            // of the action is seldom the best still (on the trailer, level 9 was the bunny small
            // in a meadow, level 5 the bunny stepping out of his burrow).
            let engaging = min(level / Double(HighlightEditing.defaultLevel), 1)
            let recurring = groupOf[index].map { Double(sizes[$0]) / largest } ?? 0
            // Something alive in the picture: a little change left once the camera's movement is
            // undone. An empty landscape just before its character enters has none.
            let alive = min(frame.subjectMotion / 0.008, 1)
            let score = quality(frame, typicalSharpness: typicalSharpness) * (0.35 + 0.65 * subject(frame))
                * (0.7 + 0.3 * engaging) * (0.85 + 0.15 * recurring) * (0.7 + 0.3 * alive) * wholeness(frame, intrusion: intrusion[index])
            scored.append((index, score))
        }
        return steadied(scored, in: frames)
    }

    /// Each score of `scored` (in time order) averaged with its neighbours', weighted by
    /// closeness in time (1 at the sample, falling to 0 at `steadySpan`). A single sample that
    /// scores high between weaker ones is usually a transient (in bikes.mp4, one sample of a
    /// pan past a taxi roof); a poster from a steady stretch looks like its moment.
    /// Samples left out as candidates (near a cut, in a transition, blank) count as nothing
    /// rather than zero, so a shot's first and last candidates keep their own level.
    static func steadied(_ scored: [(index: Int, score: Double)], in frames: [FrameFeatures]) -> [(index: Int, score: Double)] {
        scored.indices.map { position in
            let time = frames[scored[position].index].time.seconds
            var total = 0.0, weights = 0.0
            var neighbour = position
            while neighbour > 0, time - frames[scored[neighbour - 1].index].time.seconds < steadySpan { neighbour -= 1 }
            while neighbour < scored.count, frames[scored[neighbour].index].time.seconds - time < steadySpan {
                let weight = 1 - abs(frames[scored[neighbour].index].time.seconds - time) / steadySpan
                total += weight * scored[neighbour].score
                weights += weight
                neighbour += 1
            }
            return (scored[position].index, weights > 0 ? total / weights : scored[position].score)
        }
    }

    /// Sharp (half against a fixed scale, half against the video's sharper frames), well
    /// exposed, contrasty and steady (little change from the previous sample: no motion blur),
    /// 0...1.
    static func quality(_ frame: FrameFeatures, typicalSharpness: Double = 0.04) -> Double {
        let sharp = 0.5 * min(frame.sharpness / 0.08, 1) + 0.5 * min(frame.sharpness / typicalSharpness, 1)
        let exposure = max(0, 1 - abs(frame.brightness - 0.45) / 0.45)
        let contrast = min(frame.contrast / 0.2, 1)
        let steady = 1 - min(frame.change / 0.06, 1)
        return sharp * 0.4 + exposure * 0.2 + contrast * 0.1 + steady * 0.3
    }

    /// 1 unless what moves is crossing the frame's edge (a hand reaching in, a passer-by
    /// walking out of the picture): then down to 0.5, since such a subject is cut by the edge.
    static func wholeness(_ frame: FrameFeatures, intrusion: Double = 0) -> Double {
        1 - 0.5 * min(intrusion / 0.3, 1)
    }

    /// How clearly a subject is in frame: a face fully inside the picture scores up to 1 (at 8%
    /// of the picture and larger: close-ups make posters), one cut by the edge 0.3; without a
    /// face (or where faces were not looked for), the centre-surround subject cue.
    static func subject(_ frame: FrameFeatures) -> Double {
        if let faces = frame.faces, let box = faces.boxes.first {
            let margin = 0.01
            let inside = box.minX > margin && box.minY > margin && box.maxX < 1 - margin && box.maxY < 1 - margin
            let size = min(faces.largestArea / 0.08, 1)
            return inside ? max(size, frame.subject) : 0.3
        }
        return frame.subject
    }
}
