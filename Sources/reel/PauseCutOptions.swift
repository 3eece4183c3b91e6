import Foundation
import ReelArguments
import ReelKit

/// `--cut-silence`, `--cut-still` and their settings (`--silence-level`, `--silence-margin`,
/// `--min-pause`): the dead air cut out of each input, the rest encoded joined in one pass.
struct PauseCutOptions: Sendable {
    /// The keys.
    enum Keys {
        static let cutSilence = FlagKey(
            "cut-silence", help: "Cut the pauses: keep only the parts with sound, with a margin around each (as auto-editor).")
        static let cutStill = FlagKey(
            "cut-still", help: "Cut only the pauses over a still picture (a screen recording while the presenter thinks).")
        static let level = OptionKey<SilenceLevel>(
            "silence-level", valueName: "LEVEL",
            help: "Quieter is silence: a share of the loudest peak (default 4%, auto-editor's 0.04) or a level, e.g. -40dB.",
            parse: PauseCutOptions.level)
        static let margin = OptionKey<(Double, Double)>(
            "silence-margin", valueName: "TIME[,TIME]",
            help: "Quiet kept before and after each sound (default 0.2s; 0.1s,0.3s for before and after).",
            parse: PauseCutOptions.margins)
        static let minPause = OptionKey<Double>(
            "min-pause", valueName: "TIME", help: "Shortest stretch cut out, margins aside (default 0.5s); shorter gaps stay.",
            parse: { text, option throws(ArgumentError) in
                let seconds = try PauseCutOptions.seconds(text, option: option)
                guard seconds >= 0.05 else {
                    throw .invalidValue(option: option, value: text, reason: "the shortest pause cut is at least 0.05s")
                }
                return seconds
            })
    }

    /// The declarations, in help order.
    static let specs = [Keys.cutSilence.spec, Keys.cutStill.spec, Keys.level.spec, Keys.margin.spec, Keys.minPause.spec]

    /// The library's options, when `--cut-silence` or `--cut-still` was given.
    let options: DeadAirOptions?

    /// Reads the options; the settings without either flag, or both flags, are usage errors.
    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        let silence: Bool, still: Bool, level: SilenceLevel?, margin: (Double, Double)?, minPause: Double?
        do throws(ArgumentError) {
            silence = try arguments.isSet(Keys.cutSilence)
            still = try arguments.isSet(Keys.cutStill)
            level = try arguments.value(Keys.level)
            margin = try arguments.value(Keys.margin)
            minPause = try arguments.value(Keys.minPause)
            guard silence || still else {
                let given = [(Keys.level.displayName, try arguments.text(Keys.level)),
                             (Keys.margin.displayName, try arguments.text(Keys.margin)),
                             (Keys.minPause.displayName, try arguments.text(Keys.minPause))]
                if let (option, text) = given.first(where: { $0.1 != nil }) {
                    throw ArgumentError.invalidValue(
                        option: option, value: text ?? "", reason: "it sets how pauses are cut: add --cut-silence or --cut-still")
                }
                options = nil
                return
            }
        } catch {
            throw CommandFailure(error)
        }
        if silence && still {
            throw .usage("give one of --cut-silence (every pause) and --cut-still (only pauses over a still picture)")
        }
        var options = DeadAirOptions()
        options.requiresStillPicture = still
        if let level { options.silenceLevel = level }
        if let margin { (options.marginBefore, options.marginAfter) = margin }
        if let minPause { options.minimumPause = minPause }
        self.options = options
    }

    /// Turns the trim into a dead-air cut of the same parts: `--ranges`, or `--start`/`--end`,
    /// become the parts looked in. A stream copy cannot cut on the pauses' edges.
    func apply(to config: inout CompressionConfig, copy: Bool) throws(CommandFailure) {
        guard var options else { return }
        let flag = options.requiresStillPicture ? Keys.cutStill.displayName : Keys.cutSilence.displayName
        if copy { throw .usage("\(flag) cuts on the pauses' edges, and --copy only on keyframes: drop one of the two") }
        if case .ranges(let ranges) = config.trim {
            options.within = ranges
        } else if config.trimStartTime != nil || config.trimEndTime != nil {
            // No end: to the source's end, whatever its length (the planner clamps it).
            let end = config.trimEndTime ?? MediaTime(value: Int64(Int32.max), timescale: 1)
            options.within = [TimeRange(start: config.trimStartTime ?? .zero, end: end)]
        }
        config.trimStartTime = nil
        config.trimEndTime = nil
        config.trim = .cuttingDeadAir(options)
    }

    /// `4%`, `0.04` (a share of the loudest peak) or `-40dB` (a level below full scale).
    static func level(_ text: String, option: String) throws(ArgumentError) -> SilenceLevel {
        let trimmed = text.replacingOccurrences(of: " ", with: "").lowercased()
        let reason = "give a share of the loudest peak such as 4% (or 0.04) or a level below full scale such as -40dB"
        if trimmed.hasSuffix("db") {
            guard let level = Double(trimmed.dropLast(2)), level < 0, level >= -120 else {
                throw .invalidValue(option: option, value: text, reason: reason + " (dB from -120 up to, not including, 0)")
            }
            return .decibels(level)
        }
        let percent = trimmed.hasSuffix("%")
        guard let number = Double(percent ? String(trimmed.dropLast()) : trimmed) else {
            throw .invalidValue(option: option, value: text, reason: reason)
        }
        let share = percent ? number / 100 : number
        guard share > 0, share < 1 else { throw .invalidValue(option: option, value: text, reason: reason + " (above 0, below 100%)") }
        return .shareOfPeak(share)
    }

    /// A level as the option takes it: `4%` or `-40dB`.
    static func text(_ level: SilenceLevel) -> String {
        level.description.replacingOccurrences(of: " ", with: "")
    }

    /// `0.2s`, `200ms` or `0.2`: seconds, zero or more.
    static func seconds(_ text: String, option: String) throws(ArgumentError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let value: Double?
        if trimmed.hasSuffix("ms") {
            value = Double(trimmed.dropLast(2)).map { $0 / 1000 }
        } else {
            value = Double(trimmed.hasSuffix("s") ? String(trimmed.dropLast()) : trimmed)
        }
        guard let value, value >= 0, value <= 10 else {
            throw .invalidValue(option: option, value: text, reason: "give seconds from 0 to 10, such as 0.2s or 150ms")
        }
        return value
    }

    /// One margin for both sides, or `BEFORE,AFTER`.
    static func margins(_ text: String, option: String) throws(ArgumentError) -> (Double, Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count) else {
            throw .invalidValue(option: option, value: text, reason: "give one margin, or two (before,after) such as 0.1s,0.3s")
        }
        let before = try seconds(parts[0], option: option)
        return (before, parts.count == 2 ? try seconds(parts[1], option: option) : before)
    }
}
