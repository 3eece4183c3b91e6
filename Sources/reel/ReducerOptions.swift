import ReelArguments
import ReelKit

/// The `--reducer` choices: how frames are dropped to reach the target frame rate.
enum ReducerKind: String, CaseIterable, Sendable {
    /// Evenly spaced frames (the default).
    case even
    /// Random frames, reproducible with `--seed`.
    case random
    /// Frames chosen around scene changes.
    case scene
}

/// `--reducer KIND` and `--seed N`: which frames a lowered frame rate keeps.
struct ReducerOptions: Sendable {
    /// The keys.
    enum Keys {
        static let reducer = OptionKey<ReducerKind>("reducer", valueName: "KIND", help: "How frames are dropped to reach --fps.")
        static let seed = OptionKey<Int>(
            "seed", valueName: "N", help: "Seed for --reducer random (reproducible).", parse: ValueParsers.positiveInteger)
    }

    /// The declarations, in help order.
    static let specs = [Keys.reducer.spec, Keys.seed.spec]

    /// `--reducer`.
    let kind: ReducerKind?
    /// `--seed`.
    let seed: Int?

    /// Reads the options; a seed for any reducer but `random` is a usage failure.
    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        do throws(ArgumentError) {
            kind = try arguments.value(Keys.reducer)
            seed = try arguments.value(Keys.seed)
        } catch {
            throw CommandFailure(error)
        }
        if seed != nil, kind != .random {
            throw .usage("--seed only applies to --reducer random")
        }
    }

    /// The reducer the options name (evenly spaced when none is).
    var reducer: any VideoFrameReducer {
        switch kind {
        case .random?: return seed.map { ReduceFrameRandomly(seed: UInt64($0)) } ?? ReduceFrameRandomly()
        case .scene?: return SceneAwareReducer()
        case .even?, nil: return ReduceFrameEvenlySpaced()
        }
    }
}
