import Foundation
import ReelMedia
import ReelSupport

/// The framing pass of a reframed compression: decodes the kept ranges once (cuts on every
/// frame, faces and subjects on a few pictures a second) and works out the camera path.
enum FramingPass {
    /// Seconds between the pictures looked at inside a shot for motion and the subject.
    static let sampleInterval = 0.25
    /// Seconds between the pictures faces are looked for on, and their longer side: faces of
    /// about a ninth of the picture's width and up are found (dlib's HOG finder needs about
    /// 80 pixels).
    static let faceInterval = 0.5
    static let faceSize = 720

    /// The camera path for `ranges` of `source` (`nil` when the picture already has the
    /// reframing's shape), and the joins that should cut rather than dissolve. Runs off the
    /// cooperative pool; `flag` stops it; `progress` gets the share of the ranges read.
    /// `dissolvingJoins` (numbered by the range before each) dissolve over `dissolve` seconds:
    /// the window holds across them (`CameraPathPlanner.path`). Where it cannot, the windows
    /// would show the background twice (`ReframedJoins`): those joins are returned, and the
    /// path starts the shot after each afresh, as after a cut. The content measure's `bursts`
    /// inside the ranges are measured on the same decode and returned.
    static func path(
        of source: MediaInfo, ranges: [ClosedSourceRange], reframing: Reframing, frameRate: Double,
        dissolvingJoins: Set<Int> = [], dissolve: Double = 0, bursts: ContentBursts? = nil, flag: CancellationFlag,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(ReelError) -> Framed {
        if let path = reframing.path { return Framed(path: path, cutJoins: [], bursts: bursts) }
        return try await BlockingWork.run(flag: flag) { () throws(ReelError) -> Framed in
            try plannedPath(of: source, ranges: ranges, reframing: reframing, frameRate: frameRate,
                            dissolvingJoins: dissolvingJoins, dissolve: dissolve, bursts: bursts,
                            shouldCancel: { flag.isRaised }, progress: progress)
        }
    }

    /// What the framing pass worked out.
    struct Framed: Sendable {
        /// The camera path; `nil` when the picture already has the reframing's shape.
        var path: CameraPath?
        /// Joins (numbered by the range before each) that cut rather than dissolve.
        var cutJoins: Set<Int>
        /// The content measure's bursts, with those the decode passed measured.
        var bursts: ContentBursts?
    }

    /// `path(of:ranges:reframing:frameRate:dissolvingJoins:dissolve:flag:progress:)` on the
    /// calling thread (blocking).
    static func plannedPath(
        of source: MediaInfo, ranges: [ClosedSourceRange], reframing: Reframing, frameRate: Double,
        dissolvingJoins: Set<Int> = [], dissolve: Double = 0, bursts: ContentBursts? = nil,
        shouldCancel: @escaping () -> Bool, progress: (Double) -> Void = { _ in }
    ) throws(ReelError) -> Framed {
        if let path = reframing.path { return Framed(path: path, cutJoins: [], bursts: bursts) }
        guard let picture = source.primaryVideo?.video, let geometry = FramingGeometry(picture, aspect: reframing.aspect) else {
            return Framed(path: nil, cutJoins: [], bursts: bursts)
        }
        let looking = ConcurrentLooking(locator: SubjectLocator(rotation: picture.rotation))
        let stop = UncheckedStop(shouldCancel)
        let sampler = FramingSampler(source: source, interval: sampleInterval, faceInterval: faceInterval,
                                     faceSize: faceSize, shouldCancel: { stop.isRaised })
        let (cuts, measured) = try translatingFailures(source: source.url, output: source.url) { () throws(MediaFailure) in
            defer { looking.finish() }
            return try sampler.sample(ranges, bursts: bursts, progress: progress) { looking.look(at: $0) }
        }
        let observations = looking.finish()
        let planner = CameraPathPlanner(
            reframing: reframing, windowShare: geometry.windowShare, movesHorizontally: geometry.movesHorizontally,
            frameRate: frameRate)
        let cut = shots(of: ranges, cuts: cuts.map(\.seconds))
        let held = planner.path(shots: cut, observations: observations, origin: source.startTime,
                                continuing: continuing(cut, ranges: ranges, dissolvingJoins: dissolvingJoins), dissolve: dissolve)
        let apart = ReframedJoins.apart(held, ranges: ranges, dissolvingJoins: dissolvingJoins, dissolve: dissolve,
                                        origin: source.startTime)
        guard !apart.isEmpty else { return Framed(path: held, cutJoins: [], bursts: measured) }
        let remaining = dissolvingJoins.subtracting(apart)
        let path = planner.path(shots: cut, observations: observations, origin: source.startTime,
                                continuing: continuing(cut, ranges: ranges, dissolvingJoins: remaining), dissolve: dissolve)
        return Framed(path: path, cutJoins: apart, bursts: measured)
    }

    /// The shots (numbered as in `shots`) that open a range the one before dissolves into.
    static func continuing(_ shots: [(start: Double, end: Double)], ranges: [ClosedSourceRange], dissolvingJoins: Set<Int>) -> Set<Int> {
        Set(dissolvingJoins.compactMap { join in
            guard join + 1 < ranges.count else { return nil }
            let start = ranges[join + 1].start.seconds
            return shots.firstIndex { abs($0.start - start) < 1e-6 }
        })
    }

    /// The kept ranges split at the cuts inside them (file seconds).
    static func shots(of ranges: [ClosedSourceRange], cuts: [Double]) -> [(start: Double, end: Double)] {
        var shots: [(start: Double, end: Double)] = []
        for range in ranges {
            var start = range.start.seconds
            for cut in cuts where cut > start + 1e-6 && cut < range.end.seconds - 1e-6 {
                shots.append((start, cut))
                start = cut
            }
            shots.append((start, range.end.seconds))
        }
        return shots
    }
}

/// Looks for subjects on a thread of its own while the decode goes on: the face finder costs
/// more than decoding the pictures between samples, so the two overlap on two cores. At most
/// `backlog` pictures wait; the locator sees them in order.
private final class ConcurrentLooking: @unchecked Sendable {
    // The locator and the observations are touched only on `queue`.
    private let locator: SubjectLocator
    private var observations: [SubjectObservation] = []
    private let queue = DispatchQueue(label: "reel.framing.subjects")
    private let slots: DispatchSemaphore

    init(locator: SubjectLocator, backlog: Int = 12) {
        self.locator = locator
        slots = DispatchSemaphore(value: backlog)
    }

    func look(at picture: FramingPicture) {
        slots.wait()
        queue.async {
            self.observations.append(self.locator.observe(picture))
            self.slots.signal()
        }
    }

    /// Waits for the pictures handed over and returns what was seen on them, in order.
    @discardableResult
    func finish() -> [SubjectObservation] {
        queue.sync { observations }
    }
}

/// A caller's cancellation check, handed to the sampler (which runs it on this same thread).
private struct UncheckedStop: @unchecked Sendable {
    let check: () -> Bool
    init(_ check: @escaping () -> Bool) { self.check = check }
    var isRaised: Bool { check() }
}
