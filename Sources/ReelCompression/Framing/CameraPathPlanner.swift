import Foundation

/// Works out the virtual camera's path from what the framing pass saw: per shot, a corridor of
/// window positions that keep the subject in the window's middle, the taut string through it,
/// then the corners rounded off and the speed bounded, on the output's frame grid.
struct CameraPathPlanner {
    /// The output's shape and fill.
    var reframing: Reframing
    /// The window's share of the upright picture along the axis it moves on.
    var windowShare: Double
    /// Whether the window moves horizontally.
    var movesHorizontally: Bool
    /// The output's frame rate: the path is smoothed and bounded per output frame.
    var frameRate: Double
    /// The subject's centre may wander this share of the window's extent either side of the
    /// window's centre before the camera moves.
    var deadZone = 0.1
    /// The camera's top speed, window extents a second: a viewer sees a pan's speed, not its
    /// step per frame, so a 10 fps clip pans as fast as a 25 fps one (1.8% of the window a
    /// frame at 25 fps).
    var largestSpeed = 0.45
    /// Whatever the frame rate, no move between consecutive output frames exceeds this share of
    /// the picture's extent (at 10 fps the top speed is 4.5% of the window a frame).
    var largestPictureStep = 0.018
    /// Seconds over which a pan's start and stop are eased (bounded acceleration).
    var easing = 0.5
    /// Who speaks, when faces cannot share the window.
    var speakerFinder = SpeakerFinder()

    /// The path for `shots` (file seconds, in output order) from `observations` (in time order).
    /// The shots numbered in `continuing` dissolve in over `dissolve` seconds from the shot before
    /// them (a fixed camera's joins): through the dissolve their window stays where that shot's
    /// ended, as far as their subject allows, so the two pictures' backgrounds do not shift
    /// against each other.
    func path(shots: [(start: Double, end: Double)], observations: [SubjectObservation], origin: Double,
              continuing: Set<Int> = [], dissolve: Double = 0) -> CameraPath {
        var planned: [CameraPath.Shot] = []
        for (shotIndex, shot) in shots.enumerated() {
            let seen = observations.filter { $0.time >= shot.start - 1e-6 && $0.time < shot.end }
            var corridors: [(time: Double, low: Double, high: Double, centre: Double?)] = []
            var apart = 0, withFaces = 0
            // What the camera follows starts afresh at every cut.
            var tracked: Double?
            var resting: ClosedRange<Double>?
            var leaving: (box: ClosedRange<Double>, time: Double)?
            var lastFaces: (time: Double, faces: [CGRect], speaker: CGRect?)?
            let speakers = speakerFinder.speakers(in: seen)
            for (index, var observation) in seen.enumerated() {
                // Between the samples faces were looked for on, the last ones found stand.
                var speaker = speakers[index]
                if let faces = observation.faces {
                    lastFaces = (observation.time, faces, speaker)
                } else if let lastFaces, observation.time - lastFaces.time < 0.75 {
                    observation.faces = lastFaces.faces
                    speaker = lastFaces.speaker
                }
                let target = subject(of: observation, speaker: speaker, origin: origin, tracked: &tracked)
                if observation.changedThroughout { resting = nil }
                if target.kind == .moving, let box = target.box {
                    // Something as tall as a standing person that stops inside a still camera's
                    // picture is still there. One leaving the picture, a small mover (leaves, a
                    // car going away) or one seen while the camera moves (parallax) is not.
                    let tall = !observation.cameraMoved
                        && observation.moving.contains { along($0) == box && across($0) >= Self.restingExtent }
                    let inside = box.lowerBound > Self.edge && box.upperBound < 1 - Self.edge
                    leaving = inside ? nil : (box, observation.time)
                    if tall {
                        resting = inside ? box : nil
                    } else if let held = resting, !held.contains(centre(box)) {
                        // A small mover elsewhere: what stopped is not being followed any more.
                        resting = nil
                    }
                    corridors.append(corridor(for: box, kind: target.kind, at: observation.time))
                } else if target.kind != .faces, let seen = leaving, observation.time - seen.time <= Self.seeingOut {
                    // Someone going out at the picture's edge is seen out: the difference of two
                    // samples loses them while part of them still shows.
                    corridors.append(corridor(for: seen.box, kind: .moving, at: observation.time))
                } else if target.kind != .faces, let resting {
                    // Nothing moves and no face is seen: whoever came in and stopped (a person at
                    // a table, back to the camera) is still the subject, not the scenery.
                    corridors.append(corridor(for: resting, kind: .moving, at: observation.time))
                } else {
                    corridors.append(corridor(for: target.box, kind: target.kind, at: observation.time))
                }
                if observation.faces?.isEmpty == false {
                    withFaces += 1
                    if !target.together { apart += 1 }
                }
            }
            let showsWhole = reframing.fill != nil && withFaces >= 2 && Double(apart) >= 0.5 * Double(withFaces)
            if continuing.contains(shotIndex), let previous = planned.last, !previous.showsWholePicture,
               let held = previous.positions.last {
                for index in corridors.indices where corridors[index].time < shot.start + dissolve {
                    let kept = min(max(held, corridors[index].low), corridors[index].high)
                    corridors[index].low = kept
                    corridors[index].high = kept
                }
            }
            let centres = corridors.compactMap(\.centre)
            let preferred = centres.isEmpty ? (1 - windowShare) / 2 : centres.reduce(0, +) / Double(centres.count)
            let values = TautString.path(times: corridors.map(\.time), lower: corridors.map(\.low),
                                         upper: corridors.map(\.high), preferred: preferred)
            let (times, positions) = smoothed(times: corridors.map(\.time), values: values.isEmpty ? [preferred] : values,
                                              start: shot.start, end: shot.end, empty: values.isEmpty)
            planned.append(CameraPath.Shot(
                start: shot.start - origin, end: shot.end - origin, showsWholePicture: showsWhole,
                times: times.map { $0 - origin }, positions: positions))
        }
        return CameraPath(
            aspect: reframing.aspect, windowWidth: movesHorizontally ? windowShare : 1,
            windowHeight: movesHorizontally ? 1 : windowShare, movesHorizontally: movesHorizontally, shots: planned)
    }

    private enum SubjectKind { case faces, moving, salient, none }

    /// A subject within this share of the picture's side from its edge is taken to be leaving.
    static let edge = 0.02
    /// Seconds the window holds where a subject was last seen at the picture's edge.
    static let seeingOut = 1.0
    /// A mover at least this share of the picture across the window's axis (its height, for a
    /// window moving sideways) stays the subject when it stops.
    static let restingExtent = 0.3

    /// A box's extent along the axis the window moves on.
    private func along(_ box: CGRect) -> ClosedRange<Double> {
        movesHorizontally ? Double(box.minX)...Double(box.maxX) : Double(box.minY)...Double(box.maxY)
    }

    /// A box's extent across the axis the window moves on.
    private func across(_ box: CGRect) -> Double {
        Double(movesHorizontally ? box.height : box.width)
    }

    /// The span (along the moving axis) the window should hold on one sample: every sizeable
    /// face when they fit together, else the one speaking, else the face continuing the one
    /// followed so far (or the largest); without faces, what moves; else what stands out.
    private func subject(of observation: SubjectObservation, speaker: CGRect?, origin: Double, tracked: inout Double?) -> (box: ClosedRange<Double>?, kind: SubjectKind, together: Bool) {
        if let faces = observation.faces, !faces.isEmpty, let hint = focus(near: observation.time - origin) {
            // A reel of one person: the face nearest where that person was seen.
            let chosen = faces.min { distance($0, hint) < distance($1, hint) } ?? faces[0]
            let face = along(chosen), widen = (face.upperBound - face.lowerBound) * (Self.headWidening - 1) / 2
            let head = max(face.lowerBound - widen, 0)...min(face.upperBound + widen, 1)
            tracked = centre(head)
            return (head, .faces, true)
        }
        if let faces = observation.faces, let largest = faces.first {
            func head(_ box: CGRect) -> ClosedRange<Double> {
                let face = along(box), widen = (face.upperBound - face.lowerBound) * (Self.headWidening - 1) / 2
                return max(face.lowerBound - widen, 0)...min(face.upperBound + widen, 1)
            }
            let sizeable = faces.filter { $0.width * $0.height >= 0.25 * largest.width * largest.height }.map(head)
            let union = (sizeable.map(\.lowerBound).min() ?? 0)...(sizeable.map(\.upperBound).max() ?? 1)
            if sizeable.count == 1 || union.upperBound - union.lowerBound <= windowShare * 0.92 {
                tracked = (union.lowerBound + union.upperBound) / 2
                return (union, .faces, true)
            }
            if let speaker {
                // The one speaking: framed alone, not shrunk to fit with the listener.
                let spoken = head(speaker)
                tracked = centre(spoken)
                return (spoken, .faces, true)
            }
            let followed = tracked.flatMap { previous in
                sizeable.min { abs(centre($0) - previous) < abs(centre($1) - previous) }
                    .flatMap { abs(centre($0) - previous) < windowShare * 0.5 ? $0 : nil }
            } ?? sizeable[0]
            tracked = centre(followed)
            return (followed, .faces, false)
        }
        if let largest = observation.moving.first {
            // The mover followed so far, while it stays about as big as the largest one.
            let candidates = observation.moving.filter { $0.width * $0.height >= 0.4 * largest.width * largest.height }.map(along)
            let followed = tracked.flatMap { previous in
                candidates.min { abs(centre($0) - previous) < abs(centre($1) - previous) }
                    .flatMap { abs(centre($0) - previous) < windowShare * 0.5 ? $0 : nil }
            } ?? candidates[0]
            tracked = centre(followed)
            return (followed, .moving, true)
        }
        if let salient = observation.salient { return (along(salient), .salient, true) }
        return (nil, .none, true)
    }

    private func centre(_ span: ClosedRange<Double>) -> Double { (span.lowerBound + span.upperBound) / 2 }

    /// The focus hint closest in time to `seconds` (file timeline), within 1.5 s.
    private func focus(near seconds: Double) -> CGRect? {
        guard let nearest = reframing.focus.min(by: { abs($0.time - seconds) < abs($1.time - seconds) }),
              abs(nearest.time - seconds) <= 1.5 else { return nil }
        return nearest.box
    }

    private func distance(_ a: CGRect, _ b: CGRect) -> Double {
        Double(hypot(a.midX - b.midX, a.midY - b.midY))
    }

    /// The window positions that keep `box` inside the window (with room around it) and its
    /// centre in the dead zone. A head too wide for the window keeps at least its face inside.
    private func corridor(for box: ClosedRange<Double>?, kind: SubjectKind, at time: Double) -> (time: Double, low: Double, high: Double, centre: Double?) {
        let limit = max(1 - windowShare, 0)
        guard let box else { return (time, 0, limit, nil) }
        let centred = centre(box) - windowShare / 2
        let zone = windowShare * (kind == .faces ? deadZone : kind == .moving ? 0.25 : 0.3)
        var low = centred - zone, high = centred + zone
        var kept = box
        if kind == .faces, box.upperBound - box.lowerBound > windowShare * 0.9 {
            let half = (box.upperBound - box.lowerBound) / Self.headWidening / 2
            kept = (centre(box) - half)...(centre(box) + half)
        }
        let width = kept.upperBound - kept.lowerBound
        if kind != .salient, width <= windowShare * 0.98 {
            let margin = min(windowShare * 0.05, (windowShare - width) / 2)
            low = max(low, kept.upperBound + margin - windowShare)
            high = min(high, kept.lowerBound - margin)
        }
        if low > high { (low, high) = (centred, centred) }
        low = min(max(low, 0), limit)
        high = min(max(high, 0), limit)
        return (time, low, high, min(max(centred, 0), limit))
    }

    /// How much wider than the detector's face box (eyes to mouth) a head is taken to be: hair,
    /// ears and some room around them.
    static let headWidening = 1.9

    /// The taut path on the output's frame grid over the whole shot, eased and speed-bounded,
    /// thinned to a point every third frame.
    private func smoothed(times: [Double], values: [Double], start: Double, end: Double, empty: Bool) -> ([Double], [Double]) {
        let step = 1 / max(frameRate, 1)
        let count = max(Int(((end - start) / step).rounded(.up)), 1)
        let grid = (0...count).map { min(start + Double($0) * step, end) }
        var dense = grid.map { empty ? values[0] : CameraPath.interpolate(times, values, at: $0) }
        let radius = max(Int((easing / 2 / step).rounded()), 1)
        for _ in 0..<2 { dense = Self.movingAverage(dense, radius: radius) }
        // The last step may be shorter than a frame: its bound shrinks with it.
        let perFrame = min(largestSpeed * windowShare * step, largestPictureStep)
        func bound(_ index: Int) -> Double { perFrame * (grid[index] - grid[index - 1]) / step }
        for index in dense.indices.dropFirst() {
            dense[index] = min(max(dense[index], dense[index - 1] - bound(index)), dense[index - 1] + bound(index))
        }
        for index in dense.indices.dropLast().reversed() {
            dense[index] = min(max(dense[index], dense[index + 1] - bound(index + 1)), dense[index + 1] + bound(index + 1))
        }
        let limit = max(1 - windowShare, 0)
        var keptTimes: [Double] = [], kept: [Double] = []
        for index in dense.indices where index % 3 == 0 || index == dense.count - 1 {
            keptTimes.append(grid[index])
            // Rounded to a millionth (far below a pixel): a held window is exactly constant.
            kept.append((min(max(dense[index], 0), limit) * 1_000_000).rounded() / 1_000_000)
        }
        return (keptTimes, kept)
    }

    /// Each value replaced by the mean of the `radius` values either side (edges repeated).
    static func movingAverage(_ values: [Double], radius: Int) -> [Double] {
        guard values.count > 1, radius > 0 else { return values }
        var prefix = [0.0]
        prefix.reserveCapacity(values.count + 2 * radius + 1)
        let padded = [Double](repeating: values[0], count: radius) + values + [Double](repeating: values[values.count - 1], count: radius)
        for value in padded { prefix.append(prefix[prefix.count - 1] + value) }
        return values.indices.map { (prefix[$0 + 2 * radius + 1] - prefix[$0]) / Double(2 * radius + 1) }
    }
}
