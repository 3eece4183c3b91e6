import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia
import ReelSupport

/// The virtual camera's path on made-up observations: it holds still while the subject stays
/// put, pans within its speed bound when the subject moves, and starts afresh at every cut.
/// Milliseconds of work, but on a fresh clone the suites that make fixture clips hold the
/// test runner's threads for minutes: the limit is for a hang, not for speed.
@Suite(.timeLimit(.minutes(5))) struct CameraPathTests {
    @Test func theTautStringHoldsWhereOneValueFits() {
        let times = [0.0, 1, 2, 3]
        let flat = TautString.path(times: times, lower: [0.1, 0.2, 0.15, 0.1], upper: [0.5, 0.4, 0.45, 0.6], preferred: 0.35)
        #expect(flat == [0.35, 0.35, 0.35, 0.35])
        let clamped = TautString.path(times: times, lower: [0.1, 0.2, 0.15, 0.1], upper: [0.5, 0.4, 0.45, 0.6], preferred: 0.9)
        #expect(clamped == [0.4, 0.4, 0.4, 0.4])
    }

    @Test func theTautStringPansStraightBetweenHoldsAndStaysInsideTheCorridor() {
        // The subject sits left, then moves right over two seconds, then stays.
        let times = (0...12).map(Double.init)
        let lower = [0.0, 0, 0, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.5, 0.5, 0.5, 0.5]
        let upper = lower.map { $0 + 0.1 }
        let path = TautString.path(times: times, lower: lower, upper: upper, preferred: 0.3)
        for index in times.indices { #expect(path[index] >= lower[index] - 1e-9 && path[index] <= upper[index] + 1e-9) }
        // Still at both ends, and never moving back.
        #expect(path[0] == path[3] && path[9] == path[12])
        #expect(zip(path, path.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 })
        // Fewer than 0.1 per second: the steadiest pan the corridor allows, not the subject's steps.
        let speeds = zip(path, path.dropFirst()).map { $1 - $0 }
        #expect(speeds.max() ?? 1 <= 0.1 + 1e-9)
    }

    private func planner(_ reframing: Reframing = Reframing(aspect: .vertical)) -> CameraPathPlanner {
        CameraPathPlanner(reframing: reframing, windowShare: 0.316, movesHorizontally: true, frameRate: 25)
    }

    private func face(at x: Double, width: Double = 0.1) -> CGRect { CGRect(x: x, y: 0.3, width: width, height: width * 1.7) }

    @Test func aStillFaceOffCentreIsFramedWithoutAMove() throws {
        let observations = stride(from: 0.0, to: 4, by: 0.25).map {
            SubjectObservation(time: $0, faces: [face(at: 0.75)], moving: [], salient: nil, followsCut: false)
        }
        let path = planner().path(shots: [(0, 4)], observations: observations, origin: 0)
        let shot = try #require(path.shots.first)
        #expect(Set(shot.positions).count == 1, "the window moved: \(Set(shot.positions))")
        let window = try #require(path.window(at: 2))
        #expect(window.minX <= 0.75 - 0.045 && window.maxX >= 0.85 + 0.045, "\(window)")
        #expect(path.largestStep(frameRate: 25) == 0)
    }

    @Test func aMovingFaceIsFollowedWithinTheSpeedBound() throws {
        // Across the picture in 8 s: 0.09 of its width a second.
        let observations = stride(from: 0.0, to: 8, by: 0.25).map {
            SubjectObservation(time: $0, faces: [face(at: 0.05 + 0.09 * $0)], moving: [], salient: nil, followsCut: false)
        }
        let path = planner().path(shots: [(0, 8)], observations: observations, origin: 0)
        #expect(path.largestStep(frameRate: 25) <= 0.02)
        var inside = 0
        for observation in observations {
            let box = try #require(observation.faces?.first)
            if let window = path.window(at: observation.time), window.minX <= box.minX, window.maxX >= box.maxX { inside += 1 }
        }
        #expect(inside >= observations.count * 9 / 10, "\(inside) of \(observations.count)")
    }

    /// A person walking across a 10 fps clip (a surveillance camera's) is followed as fast as
    /// at 25 fps: the bound is a speed a viewer sees, each step still at most 1.8% of the picture.
    @Test func aLowFrameRateClipPansAsFastAsAFullRateOne() throws {
        // Across the picture in 4 s: 0.2 of its width a second, faster than the camera's top speed.
        let observations = stride(from: 0.0, to: 6, by: 0.25).map {
            SubjectObservation(time: $0, faces: [face(at: min(0.05 + 0.2 * $0, 0.85))], moving: [], salient: nil, followsCut: false)
        }
        func path(frameRate: Double) -> CameraPath {
            CameraPathPlanner(reframing: Reframing(aspect: .vertical), windowShare: 0.316, movesHorizontally: true, frameRate: frameRate)
                .path(shots: [(0, 6)], observations: observations, origin: 0)
        }
        let slow = path(frameRate: 10), full = path(frameRate: 25)
        for time in stride(from: 0.5, through: 5.5, by: 0.5) {
            let a = try #require(slow.window(at: time)), b = try #require(full.window(at: time))
            #expect(abs(a.minX - b.minX) < 0.02, "at \(time) s: \(a.minX) at 10 fps, \(b.minX) at 25 fps")
        }
        #expect(slow.largestStep(frameRate: 10) * 0.316 <= 0.018 + 1e-9)
        #expect(slow.largestStep(frameRate: 10) > 0.03, "the 10 fps camera was held to the 25 fps step")
    }

    @Test func everyShotStartsAfresh() throws {
        let observations = stride(from: 0.0, to: 4, by: 0.25).map {
            SubjectObservation(time: $0, faces: [face(at: $0 < 2 ? 0.05 : 0.8)], moving: [], salient: nil, followsCut: $0 == 2)
        }
        let path = planner().path(shots: [(0, 2), (2, 4)], observations: observations, origin: 0)
        #expect(path.shots.count == 2)
        let first = try #require(path.window(at: 1.9)), second = try #require(path.window(at: 2.0))
        #expect(first.minX < 0.1 && second.maxX > 0.85, "\(first) \(second)")
        #expect(Set(path.shots[0].positions).count == 1 && Set(path.shots[1].positions).count == 1)
    }

    /// Two pieces of one fixed camera that dissolve into each other: through the dissolve the
    /// second window stays where the first ended (its subject allows it), so the backgrounds
    /// do not slide against each other; a cut starts afresh.
    @Test func aDissolvedJoinKeepsTheWindowWhereTheSubjectAllows() throws {
        let observations = stride(from: 0.0, to: 4, by: 0.25).map {
            SubjectObservation(time: $0, faces: [face(at: $0 < 2 ? 0.30 : 0.33)], moving: [], salient: nil, followsCut: false)
        }
        let fresh = planner().path(shots: [(0, 2), (2, 4)], observations: observations, origin: 0)
        let held = planner().path(shots: [(0, 2), (2, 4)], observations: observations, origin: 0, continuing: [1], dissolve: 0.5)
        let ended = try #require(fresh.shots[0].positions.last)
        #expect(held.shots[0].positions == fresh.shots[0].positions)
        #expect(abs((fresh.shots[1].positions.first ?? 0) - ended) > 0.02, "\(fresh.shots[1].positions)")
        #expect(abs((held.shots[1].positions.first ?? 0) - ended) < 1e-3, "\(held.shots[1].positions)")
        let window = try #require(held.window(at: 2.4))
        #expect(window.minX <= 0.33 && window.maxX >= 0.43, "the face stays in: \(window)")
    }

    /// Two pieces of one fixed camera, 4 s each, dissolving over 0.5 s: a visitor on the
    /// left in both (the window holds across the dissolve, which stays), or on the left and
    /// then far right (the windows stand apart: the background would show twice, so that join
    /// cuts, at the dissolve's middle).
    @Test func aDissolveBetweenWindowsFarApartBecomesACutAtItsMiddle() throws {
        let ranges = [(0.0, 4.0), (10.0, 14.0)].map {
            ClosedSourceRange(start: MediaTime(seconds: $0.0, timescale: 1000), end: MediaTime(seconds: $0.1, timescale: 1000),
                              needsSeek: true, endsEarly: true)
        }
        func path(secondAt x: Double) -> CameraPath {
            let observations = (stride(from: 0.0, to: 4, by: 0.25).map { $0 } + stride(from: 10.0, to: 14, by: 0.25).map { $0 }).map {
                SubjectObservation(time: $0, faces: [face(at: $0 < 5 ? 0.30 : x)], moving: [], salient: nil, followsCut: $0 == 10)
            }
            return planner().path(shots: [(0, 4), (10, 14)], observations: observations, origin: 0, continuing: [1], dissolve: 0.5)
        }
        let near = path(secondAt: 0.33), far = path(secondAt: 0.75)
        #expect(ReframedJoins.apart(near, ranges: ranges, dissolvingJoins: [0], dissolve: 0.5, origin: 0).isEmpty)
        #expect(ReframedJoins.apart(far, ranges: ranges, dissolvingJoins: [0], dissolve: 0.5, origin: 0) == [0])
        // Not a join that dissolves, or pieces too short to lose a quarter second each: left be.
        #expect(ReframedJoins.apart(far, ranges: ranges, dissolvingJoins: [], dissolve: 0.5, origin: 0).isEmpty)
        #expect(ReframedJoins.apart(far, ranges: ranges, dissolvingJoins: [0], dissolve: 1.8, origin: 0).isEmpty)
        let listed = [TimeRange(start: .zero, end: MediaTime(value: 4, timescale: 1)),
                      TimeRange(start: MediaTime(value: 10, timescale: 1), end: MediaTime(value: 14, timescale: 1))]
        let cut = ReframedJoins.cutAtMiddles(listed, joins: [0], dissolve: 0.5)
        #expect(cut.map { [$0.start.seconds, $0.end.seconds] } == [[0, 3.75], [10.25, 14]])
    }

    @Test func facesTooFarApartShowTheWholePictureOnlyWhenAFillIsAsked() {
        let observations = stride(from: 0.0, to: 3, by: 0.25).map {
            SubjectObservation(time: $0, faces: [face(at: 0.05, width: 0.12), face(at: 0.8, width: 0.12)], moving: [], salient: nil,
                               followsCut: false)
        }
        let filled = planner(Reframing(aspect: .vertical, fill: .blur)).path(shots: [(0, 3)], observations: observations, origin: 0)
        let followed = planner().path(shots: [(0, 3)], observations: observations, origin: 0)
        #expect(filled.shots.map(\.showsWholePicture) == [true])
        #expect(followed.shots.map(\.showsWholePicture) == [false])
    }

    @Test func theFaceWhoseMouthMovesIsFramedOverALargerStillOne() throws {
        // A small face talking on the left (its lips open and shut from sample to sample), a
        // larger one listening on the right (lips still, within landmark noise).
        func observations(talking: Bool) -> [SubjectObservation] {
            stride(from: 0.0, to: 4, by: 0.5).enumerated().map { index, time in
                let lips = talking ? (index % 2 == 0 ? 0.05 : 0.3) : 0.1
                return SubjectObservation(time: time, faces: [face(at: 0.7, width: 0.16), face(at: 0.1, width: 0.1)],
                                          mouths: [0.1 + (index % 2 == 0 ? 0.01 : 0), lips], moving: [], salient: nil, followsCut: false)
            }
        }
        for fill in [nil, FramingFill.blur] {
            let spoken = planner(Reframing(aspect: .vertical, fill: fill)).path(shots: [(0, 4)], observations: observations(talking: true), origin: 0)
            #expect(spoken.shots.map(\.showsWholePicture) == [false], "the speaker is framed, not the whole picture")
            for time in stride(from: 0.0, to: 4, by: 0.25) {
                let window = try #require(spoken.window(at: time))
                #expect(window.minX <= 0.1 && window.maxX >= 0.2, "the talking face is inside at \(time)")
            }
        }
        let silent = planner().path(shots: [(0, 4)], observations: observations(talking: false), origin: 0)
        let window = try #require(silent.window(at: 2))
        #expect(window.minX <= 0.7 && window.maxX >= 0.86, "with nobody talking, the larger face")
    }

    /// A person walks in from the left and stops at 0.6 for 6 s, back to the camera: no face,
    /// nothing moving, and the floor at the left stands out in colour.
    private func walksInAndStops(cameraMoved: Bool = false, stopsAt x: Double = 0.6) -> [SubjectObservation] {
        let floor = CGRect(x: 0.05, y: 0.6, width: 0.3, height: 0.3)
        return stride(from: 0.0, to: 10, by: 0.5).map { time in
            // What moved between two samples spans where the person was and where they are.
            let walking = time <= 3
            let at = walking ? 0.1 + (x - 0.1) * time / 3 : x
            let person = CGRect(x: at - 0.1, y: 0.1, width: min(at + 0.05, 1) - (at - 0.1), height: 0.7)
            return SubjectObservation(time: time, faces: [], moving: walking ? [person] : [], salient: floor, followsCut: false,
                                      cameraMoved: cameraMoved)
        }
    }

    @Test func aPersonWhoWalksInAndStopsStaysFramedNotTheScenery() throws {
        let path = planner().path(shots: [(0, 10)], observations: walksInAndStops(), origin: 0)
        for time in [5.0, 7, 9.5] {
            let window = try #require(path.window(at: time))
            #expect(window.minX <= 0.55 && window.maxX >= 0.65, "at \(time) s the window \(window) lost the person at 0.55-0.65")
        }
        // Seen while the camera moved, the 'mover' may be parallax: the salient floor is framed.
        let panned = planner().path(shots: [(0, 10)], observations: walksInAndStops(cameraMoved: true), origin: 0)
        let floorFramed = try #require(panned.window(at: 9.5))
        #expect(floorFramed.maxX < 0.55, "\(floorFramed)")
        // One who walks on out of the picture is not held at its edge.
        let leaving = planner().path(shots: [(0, 10)], observations: walksInAndStops(stopsAt: 1), origin: 0)
        let afterwards = try #require(leaving.window(at: 9.5))
        #expect(afterwards.maxX < 0.55, "\(afterwards)")
    }

    /// Someone walking out at the picture's edge is seen out: the window holds where they were
    /// last seen (the difference of two samples loses them while part of them still shows)
    /// a moment longer, rather than setting off for the scenery before they are gone.
    @Test func someoneWalkingOutIsSeenOut() throws {
        let floor = CGRect(x: 0.05, y: 0.6, width: 0.3, height: 0.3)
        let observations = stride(from: 0.0, to: 9, by: 0.25).map { time in
            // From the middle to the right edge in 4 s, slower than the camera's top speed.
            let at = 0.5 + 0.5 * min(time, 4) / 4
            let person = CGRect(x: at - 0.1, y: 0.1, width: min(at + 0.05, 1) - (at - 0.1), height: 0.7)
            return SubjectObservation(time: time, faces: [], moving: time <= 4 ? [person] : [], salient: floor, followsCut: false)
        }
        let path = planner().path(shots: [(0, 9)], observations: observations, origin: 0)
        for time in [4.0, 4.3, 4.5] {
            let window = try #require(path.window(at: time))
            #expect(window.minX <= 0.9 && window.maxX >= 0.999, "at \(time) s the window \(window) left before they did")
        }
        let afterwards = try #require(path.window(at: 8.5))
        #expect(afterwards.maxX < 0.55, "then the floor: \(afterwards)")
    }

    @Test func aspectRatiosParse() {
        #expect(AspectRatio(parsing: "9:16") == .vertical)
        #expect(AspectRatio(parsing: "4x5") == .portrait)
        #expect(AspectRatio(parsing: "1/1") == .square)
        #expect(AspectRatio(parsing: "16:0") == nil && AspectRatio(parsing: "wide") == nil)
    }
}
