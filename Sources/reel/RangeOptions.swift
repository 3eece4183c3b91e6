import ReelArguments
import ReelKit

/// `--start`, `--end` and (where a command joins ranges) `--ranges`: which part of the source
/// is kept.
struct TrimOptions: Sendable {
    /// The keys.
    enum Keys {
        static let start = OptionKey<ParsedTime>(
            "start", valueName: "TIME", help: "Keep from this time, e.g. 1.5 or 00:01:02.", parse: ValueParsers.time)
        static let end = OptionKey<ParsedTime>(
            "end", valueName: "TIME", help: "Keep up to this time, e.g. 00:00:12.250.", parse: ValueParsers.time)
        static let ranges = OptionKey<[ParsedTimeRange]>(
            "ranges", valueName: "LIST",
            help: "Keep these ranges, in this order, joined: 1.5-4,10-14.2 or 00:01:00-00:01:30.",
            parse: ValueParsers.timeRanges)
    }

    /// The declarations; `ranges` adds `--ranges`.
    static func specs(ranges: Bool) -> [OptionSpec] {
        [Keys.start.spec, Keys.end.spec] + (ranges ? [Keys.ranges.spec] : [])
    }

    let start: ParsedTime?
    let end: ParsedTime?
    /// `--start` and `--end` as typed, for messages.
    let startText: String?
    let endText: String?
    let ranges: [ParsedTimeRange]?

    /// Reads the options; `ranges` as given to `specs`.
    init(_ arguments: ParsedArguments, ranges takesRanges: Bool) throws(ArgumentError) {
        start = try arguments.value(Keys.start)
        end = try arguments.value(Keys.end)
        startText = try arguments.text(Keys.start)
        endText = try arguments.text(Keys.end)
        ranges = takesRanges ? try arguments.value(Keys.ranges) : nil
    }

    /// `--ranges`, or `--start` and `--end` exact with the start before the end.
    func apply(to config: inout CompressionConfig) throws(ArgumentError) {
        if let ranges {
            if let (option, text) = [("--start", startText), ("--end", endText)].first(where: { $0.1 != nil }) {
                throw .invalidValue(option: option, value: text ?? "", reason: "--ranges already says what to keep")
            }
            config.trim = .ranges(ranges.map {
                TimeRange(start: Self.mediaTime($0.start), end: Self.mediaTime($0.end))
            })
            return
        }
        let start = start.map(Self.mediaTime)
        let end = end.map(Self.mediaTime)
        if let start, let end, end <= start {
            throw .invalidValue(option: "--end", value: endText ?? "", reason: "the end must come after --start")
        }
        config.trimStartTime = start
        config.trimEndTime = end
    }

    /// The exact `MediaTime` of a parsed command-line time.
    private static func mediaTime(_ time: ParsedTime) -> MediaTime {
        MediaTime(value: time.value, timescale: time.timescale)
    }
}

/// `--crossfade SECONDS` and `--fade SECONDS`: how kept ranges are joined, and how the output
/// starts and ends.
struct JoinOptions: Sendable {
    /// The key.
    static let crossfade = OptionKey<Double>(
        "crossfade", valueName: "SECONDS", help: "Dissolve and crossfade sound at each join, e.g. 0.5.",
        parse: ValueParsers.positiveDouble)
    /// `--fade`: 0 turns a reel's fades off.
    static let fade = OptionKey<Double>(
        "fade", valueName: "SECONDS",
        help: "Fade in from black and silence at the start and out at the end, e.g. 0.4 (reels: 0.4 by default; 0: none).",
        parse: { text, option throws(ArgumentError) in
            guard let seconds = Double(text), seconds >= 0, seconds <= 5 else {
                throw .invalidValue(option: option, value: text, reason: "give seconds from 0 to 5, such as 0.4 (0: no fades)")
            }
            return seconds
        })

    /// `--crossfade`.
    let crossfade: Double?
    /// `--fade`.
    let fade: Double?

    /// Reads the options (`--fade` alone unless `readsCrossfade`: a command without joins).
    init(_ arguments: ParsedArguments, readsCrossfade: Bool = true) throws(ArgumentError) {
        crossfade = readsCrossfade ? try arguments.value(Self.crossfade) : nil
        fade = try arguments.value(Self.fade)
    }

    /// Sets the crossfade and the fades.
    func apply(to config: inout CompressionConfig) {
        if let crossfade { config.crossfadeDuration = crossfade }
        if let fade { config.edgeFadeDuration = fade }
    }
}

/// `--copy`: a lossless cut of whole keyframe groups instead of an encode.
struct CopyOption: Sendable {
    /// The key.
    static let copy = FlagKey("copy", help: "Lossless: copy the packets of whole keyframe groups, no re-encoding.")

    /// `--copy`.
    let isSet: Bool

    /// Reads the flag.
    init(_ arguments: ParsedArguments) throws(ArgumentError) {
        isSet = try arguments.isSet(Self.copy)
    }

    /// Asks for a stream copy.
    func apply(to config: inout CompressionConfig) {
        if isSet { config.streamCopy = true }
    }
}
