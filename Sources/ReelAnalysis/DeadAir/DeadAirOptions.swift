import Foundation
import ReelSupport

/// Below what level sound counts as silence.
public enum SilenceLevel: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A share (above 0, below 1) of the loudest sample of the whole sound: auto-editor's
    /// `threshold` (its default 0.04, 4%, is 28 dB below the peak). Follows the recording's own
    /// level, so a quiet recording is judged like a loud one.
    case shareOfPeak(Double)
    /// A fixed peak level in dB below full scale, such as -40 (ffmpeg's `silencedetect` measures
    /// this way).
    case decibels(Double)

    /// `4%` or `-40 dB`.
    public var description: String {
        switch self {
        case .shareOfPeak(let share): return String(format: "%g%%", share * 100)
        case .decibels(let level): return String(format: "%g dB", level)
        }
    }

    /// The peak amplitude (0...1) below which a window is silent, for a sound whose loudest
    /// sample is `loudest`.
    func amplitude(loudest: Float) -> Float {
        switch self {
        case .shareOfPeak(let share): return Float(share) * loudest
        case .decibels(let level): return Float(pow(10, level / 20))
        }
    }
}

/// How dead air is found and cut (`TrimSelection.cuttingDeadAir`, `reel compress --cut-silence`):
/// the parts whose sound stays below `silenceLevel` are cut, keeping `marginBefore` and
/// `marginAfter` of quiet around the sound, and never cutting out less than `minimumPause`.
/// The defaults are auto-editor's (threshold 4% of the peak, 0.2 s margins), except that pauses
/// shorter than half a second are kept, for a natural pace.
public struct DeadAirOptions: Sendable, Equatable, Codable {
    /// Below this level the sound is silence.
    public var silenceLevel: SilenceLevel = .shareOfPeak(0.04)
    /// Seconds of quiet kept before each sound starts (a breath in, a soft first syllable).
    public var marginBefore: Double = 0.2
    /// Seconds of quiet kept after each sound ends (a word's tail, the room's ring).
    public var marginAfter: Double = 0.2
    /// The shortest stretch worth cutting out, in seconds (after the margins): pieces kept on
    /// either side of a shorter gap are joined instead, so no join saves only a blink.
    public var minimumPause: Double = 0.5
    /// Sound shorter than this, in seconds (a click, a tap on the microphone), counts as silence.
    public var minimumSound: Double = 0.1
    /// Cut only where the picture also stands still (a screen recording while the presenter
    /// thinks): a pause over a moving picture is kept. A source without sound is then cut where
    /// its picture stands still.
    public var requiresStillPicture = false
    /// The parts of the source to look in and keep from, in output order (times from the
    /// container's start); empty for the whole source. A range that ends past the source's end
    /// runs to its end.
    public var within: [TimeRange] = []

    /// Options that cut every pause, as auto-editor does by default.
    public init() {}

    /// Creates options.
    public init(silenceLevel: SilenceLevel = .shareOfPeak(0.04), marginBefore: Double = 0.2, marginAfter: Double = 0.2,
                minimumPause: Double = 0.5, minimumSound: Double = 0.1, requiresStillPicture: Bool = false,
                within: [TimeRange] = []) {
        self.silenceLevel = silenceLevel
        self.marginBefore = marginBefore
        self.marginAfter = marginAfter
        self.minimumPause = minimumPause
        self.minimumSound = minimumSound
        self.requiresStillPicture = requiresStillPicture
        self.within = within
    }

    /// Throws `ReelError.invalidConfiguration` for values that make no sense whatever the source.
    public func validate() throws(ReelError) {
        switch silenceLevel {
        case .shareOfPeak(let share) where !(share > 0 && share < 1):
            throw .invalidConfiguration("a silence level as a share of the peak is between 0 and 100%, got \(share * 100)%")
        case .decibels(let level) where !(level < 0 && level >= -120):
            throw .invalidConfiguration("a silence level in dB is below 0 (full scale) and at least -120, got \(level) dB")
        default:
            break
        }
        for (name, value) in [("marginBefore", marginBefore), ("marginAfter", marginAfter)] where !(0...10).contains(value) {
            throw .invalidConfiguration("\(name) must be between 0 and 10 s, got \(value)")
        }
        if !(minimumPause >= 0.05 && minimumPause <= 600) {
            throw .invalidConfiguration("minimumPause must be between 0.05 and 600 s, got \(minimumPause)")
        }
        if !(0...10).contains(minimumSound) {
            throw .invalidConfiguration("minimumSound must be between 0 and 10 s, got \(minimumSound)")
        }
        if within.contains(where: { $0.isEmpty || $0.start < .zero }) {
            throw .invalidConfiguration("every range to look in must start at 0 or later and end after it starts")
        }
    }
}
