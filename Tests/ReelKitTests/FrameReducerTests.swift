import Testing
@testable import ReelCompression
@testable import ReelFrameReduction
@testable import ReelSupport

/// Reducers on synthetic frame timings: which frames survive and when they are shown.
@Suite(.timeLimit(.minutes(5))) struct FrameReducerTests {
    /// Frames at `rate` fps for `count` frames, as reducer input.
    static func constantFrames(rate: Int, count: Int) -> [FrameTiming] {
        (0..<count).map { index in
            FrameTiming(start: MediaTime(value: Int64(index), timescale: Int32(rate)),
                        end: MediaTime(value: Int64(index + 1), timescale: Int32(rate)))
        }
    }

    static func decisions(_ reducer: some VideoFrameReducer, rate: Double, frames: [FrameTiming]) -> [FrameDecision] {
        var selector = reducer.makeSelector(targetFrameRate: rate)
        return frames.map { selector.select($0) }
    }

    static func keptTimes(_ decisions: [FrameDecision]) -> [MediaTime] {
        decisions.compactMap { if case .keep(let time) = $0 { return time } else { return nil } }
    }

    @Test func evenlySpacedHalvesSixtyToThirty() {
        let frames = Self.constantFrames(rate: 60, count: 120)
        let decisions = Self.decisions(ReduceFrameEvenlySpaced(), rate: 30, frames: frames)
        let keptIndices = decisions.indices.filter { decisions[$0] != .drop }
        #expect(keptIndices == Array(stride(from: 0, to: 120, by: 2)))
        #expect(Self.keptTimes(decisions) == (0..<60).map { MediaTime(value: Int64($0), timescale: 30) })
    }

    @Test func evenlySpacedSixtyToTwentyFourKeepsTheFrameOnScreenAtEachInstant() {
        let frames = Self.constantFrames(rate: 60, count: 60)
        let decisions = Self.decisions(ReduceFrameEvenlySpaced(), rate: 24, frames: frames)
        let kept = Self.keptTimes(decisions)
        #expect(kept.count == 24)
        #expect(kept == (0..<24).map { MediaTime(value: Int64($0), timescale: 24) })
        // Instant k/24 s lies in source frame floor(k * 60 / 24) = floor(2.5 k).
        let keptIndices = decisions.indices.filter { decisions[$0] != .drop }
        #expect(keptIndices == (0..<24).map { $0 * 5 / 2 })
    }

    @Test func slowerSourceKeepsEveryFrame() {
        let frames = Self.constantFrames(rate: 24, count: 48)
        let decisions = Self.decisions(ReduceFrameEvenlySpaced(), rate: 30, frames: frames)
        #expect(!decisions.contains(.drop))
    }

    @Test func variableFrameRateKeepsTimelineAndDropsOnlyInBursts() {
        // Gaps of 1/60, 2/60 and 3/60 s repeating, as in a VFR phone clip.
        var ticks: [Int64] = [0]
        for index in 0..<90 { ticks.append(ticks[ticks.count - 1] + Int64(index % 3 + 1)) }
        let frames = zip(ticks, ticks.dropFirst()).map {
            FrameTiming(start: MediaTime(value: $0, timescale: 60), end: MediaTime(value: $1, timescale: 60))
        }
        let kept = Self.keptTimes(Self.decisions(ReduceFrameEvenlySpaced(), rate: 30, frames: frames))
        let total = frames.last.map(\.end.seconds) ?? 0
        // One frame per 1/30 s instant that has a frame on screen; never more than 30 fps.
        #expect(kept.count == Int((total * 30).rounded(.up)))
        for (earlier, later) in zip(kept, kept.dropFirst()) {
            #expect(later - earlier >= MediaTime(value: 1, timescale: 30))
        }
    }

    @Test func firstFrameIsKeptEvenWhenItStartsLate() {
        let frames = [FrameTiming(start: MediaTime(value: 1, timescale: 100), end: MediaTime(value: 5, timescale: 100))]
        #expect(Self.decisions(ReduceFrameEvenlySpaced(), rate: 10, frames: frames) == [.keep(at: .zero)])
    }

    @Test func randomReducerIsReproducibleAndKeepsOnePerSlot() {
        let frames = Self.constantFrames(rate: 60, count: 600)
        let first = Self.decisions(ReduceFrameRandomly(seed: 42), rate: 15, frames: frames)
        let second = Self.decisions(ReduceFrameRandomly(seed: 42), rate: 15, frames: frames)
        let other = Self.decisions(ReduceFrameRandomly(seed: 7), rate: 15, frames: frames)
        #expect(first == second)
        #expect(first != other)
        let kept = first.indices.filter { first[$0] != .drop }
        #expect(kept.count == 150)
        // Each kept frame comes from its own 4-frame slot.
        #expect(kept.map { $0 / 4 } == Array(0..<150))
        #expect(Self.keptTimes(first) == (0..<150).map { MediaTime(value: Int64($0), timescale: 15) })
    }

    /// 29.97 fps into 15: frames straddle slot boundaries, and a random instant in each of two
    /// slots can fall in the same frame. Every slot still gets its own frame (it kept 6% fewer).
    @Test func randomReducerKeepsTheTargetRateFromAnUnalignedSource() {
        let frames = (0..<2997).map { index in
            FrameTiming(start: MediaTime(value: Int64(index) * 1001, timescale: 30000),
                        end: MediaTime(value: Int64(index + 1) * 1001, timescale: 30000))
        }
        for seed in [1, 2, 3] as [UInt64] {
            let decisions = Self.decisions(ReduceFrameRandomly(seed: seed), rate: 15, frames: frames)
            let kept = Self.keptTimes(decisions)
            // 100.1 s at 15 per second.
            #expect(abs(kept.count - 1501) <= 1, "seed \(seed): \(kept.count) frames")
            #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test func sceneAwareKeepsTheFirstFrameAfterACut() {
        var frames = Self.constantFrames(rate: 60, count: 60)
        for index in frames.indices { frames[index].sceneChange = index == 31 ? 0.5 : 0.01 }
        let decisions = Self.decisions(SceneAwareReducer(), rate: 15, frames: frames)
        #expect(decisions[31] == .keep(at: MediaTime(value: 31, timescale: 60)))
        // Evenly spaced alone would skip frame 31 (instants fall on frames 28 and 32).
        let even = Self.decisions(ReduceFrameEvenlySpaced(), rate: 15, frames: frames)
        #expect(even[31] == .drop)
        // After the cut the grid restarts there: frame 35 is 4/60 s later.
        #expect(decisions[35] == .keep(at: MediaTime(value: 35, timescale: 60)))
        let kept = Self.keptTimes(decisions)
        for (earlier, later) in zip(kept, kept.dropFirst()) { #expect(earlier < later) }
    }

    /// A reducer that keeps times going backwards.
    struct BackwardsReducer: VideoFrameReducer {
        func makeSelector(targetFrameRate: Double) -> any FrameSelector { Selector() }
        struct Selector: FrameSelector {
            var kept = 0
            mutating func select(_ frame: FrameTiming) -> FrameDecision {
                kept += 1
                return .keep(at: kept <= 2 ? frame.start : .zero)
            }
        }
    }

    /// A reducer that keeps frames far in the future (at 100 s).
    struct FutureReducer: VideoFrameReducer {
        func makeSelector(targetFrameRate: Double) -> any FrameSelector { Selector() }
        struct Selector: FrameSelector {
            mutating func select(_ frame: FrameTiming) -> FrameDecision { .keep(at: MediaTime(value: 100, timescale: 1)) }
        }
    }

    /// A reducer that keeps nothing.
    struct NothingReducer: VideoFrameReducer {
        func makeSelector(targetFrameRate: Double) -> any FrameSelector { Selector() }
        struct Selector: FrameSelector {
            mutating func select(_ frame: FrameTiming) -> FrameDecision { .drop }
        }
    }

    @Test func aMisbehavingReducerIsNamedInATypedError() async throws {
        let cases: [(any VideoFrameReducer, String)] = [
            (BackwardsReducer(), "BackwardsReducer kept a frame at 0.0 s, before"),
            (FutureReducer(), "FutureReducer kept a frame at 100.0 s, outside its span"),
            (NothingReducer(), "NothingReducer kept no frame"),
        ]
        for (reducer, expected) in cases {
            let directory = try Fixtures.scratchDirectory()
            var config = Harness.fastConfig(in: directory)
            config.fps = 15
            let error = await Harness.reelError {
                _ = try await VideoCompressor().compressVideo(try Fixtures.clip("cfr_audio.mp4"), config: config, frameReducer: reducer)
            }
            guard case .invalidConfiguration(let message, _) = error else {
                Issue.record("\(expected): got \(String(describing: error))")
                continue
            }
            #expect(message.contains(expected), "\(message)")
            #expect(Fixtures.contents(of: directory).isEmpty)
        }
    }
}
