/// A shard of work written `K/N`: part `index` of `count` equal parts, counted from 1.
public struct ParsedShard: Sendable, Hashable {
    /// The 1-based part number, as typed (`K`).
    public var index: Int
    /// The number of parts (`N`).
    public var count: Int

    /// Creates a shard; callers should keep `1 <= index <= count`.
    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// The part number counted from 0, for indexing arrays.
    public var zeroBasedIndex: Int { index - 1 }
}

/// Parsers that turn option text into typed values, throwing `ArgumentError.invalidValue`.
///
/// Each takes the text and the option's display name (e.g. `"--bitrate"`) for messages, so
/// they can be passed straight to `OptionKey(_:valueName:help:parse:)`.
public enum ValueParsers {
    /// Parses a bitrate such as `2M`, `2.5M`, `800k`, `96K` or `2000000` into bits per second.
    ///
    /// Suffixes are decimal and case-insensitive: k = 1 000, M = 1 000 000, G = 1 000 000 000.
    public static func bitrate(_ text: String, option: String) throws(ArgumentError) -> Int {
        func fail(_ reason: String) -> ArgumentError {
            .invalidValue(option: option, value: text, reason: reason)
        }
        let example = "such as 2M, 2.5M, 800k or 2000000"
        if text.hasPrefix("-") { throw fail("a bitrate must be positive, \(example)") }
        var number = Substring(text)
        var multiplier: Int64 = 1
        switch number.last {
        case "k", "K": multiplier = 1_000
        case "m", "M": multiplier = 1_000_000
        case "g", "G": multiplier = 1_000_000_000
        default: break
        }
        if multiplier > 1 { number = number.dropLast() }
        guard let literal = DecimalLiteral(number) else {
            throw fail("expected bits per second \(example)")
        }
        let fraction = literal.significantFractionDigits
        guard let scale = DecimalLiteral.powerOfTen(fraction.count), multiplier % scale == 0 else {
            throw fail("a bitrate must come to whole bits per second, \(example)")
        }
        guard let digits = DecimalLiteral.integer(literal.integerDigits + fraction) else {
            throw fail("bitrate is too large; use a value \(example)")
        }
        let (bits, overflow) = digits.multipliedReportingOverflow(by: multiplier / scale)
        guard !overflow, let result = Int(exactly: bits) else {
            throw fail("bitrate is too large; use a value \(example)")
        }
        guard result > 0 else { throw fail("a bitrate must be greater than zero, \(example)") }
        return result
    }

    /// Parses a whole number greater than zero, such as `4`.
    public static func positiveInteger(
        _ text: String, option: String
    ) throws(ArgumentError) -> Int {
        func fail(_ reason: String) -> ArgumentError {
            .invalidValue(option: option, value: text, reason: reason)
        }
        guard let literal = DecimalLiteral(text), literal.fractionDigits.isEmpty else {
            throw fail("expected a whole number greater than zero, such as 4")
        }
        guard let value = DecimalLiteral.integer(literal.integerDigits),
              let result = Int(exactly: value)
        else { throw fail("number is too large; use a value such as 4") }
        guard result > 0 else { throw fail("expected a whole number greater than zero, such as 4") }
        return result
    }

    /// Parses a stream number as `reel probe` lists them: a whole number from 0, such as `2`.
    public static func streamNumber(_ text: String, option: String) throws(ArgumentError) -> Int {
        guard let literal = DecimalLiteral(text), literal.fractionDigits.isEmpty,
              let value = DecimalLiteral.integer(literal.integerDigits), let result = Int(exactly: value) else {
            throw .invalidValue(option: option, value: text, reason: "expected a stream number from 0, as reel probe lists them, such as 2")
        }
        return result
    }

    /// Parses a number greater than zero: a decimal or a ratio, e.g. `24`, `29.97`, `30000/1001`.
    public static func positiveDouble(
        _ text: String, option: String
    ) throws(ArgumentError) -> Double {
        let reason = "expected a number greater than zero, such as 24, 29.97 or 30000/1001"
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        var result: Double?
        if parts.count == 2, let numerator = DecimalLiteral(parts[0])?.doubleValue,
           let denominator = DecimalLiteral(parts[1])?.doubleValue, denominator > 0 {
            result = numerator / denominator
        } else if parts.count == 1 {
            result = DecimalLiteral(text)?.doubleValue
        }
        guard let result, result.isFinite, result > 0 else {
            throw .invalidValue(option: option, value: text, reason: reason)
        }
        return result
    }

    /// Parses a duration in seconds greater than zero, such as `30` or `90.5`.
    public static func seconds(_ text: String, option: String) throws(ArgumentError) -> Double {
        guard let value = DecimalLiteral(text)?.doubleValue, value.isFinite, value > 0 else {
            throw .invalidValue(option: option, value: text, reason: "expected a duration in seconds greater than zero, such as 30 or 90.5")
        }
        return value
    }

    /// Parses a fraction between 0 and 1 inclusive, such as `0.7`.
    public static func fraction(_ text: String, option: String) throws(ArgumentError) -> Double {
        guard let value = DecimalLiteral(text)?.doubleValue, value >= 0, value <= 1 else {
            throw .invalidValue(
                option: option, value: text, reason: "expected a number from 0 to 1, such as 0.7")
        }
        return value
    }

    /// Parses a shard `K/N` with `1 <= K <= N`, such as `2/4`.
    public static func shard(_ text: String, option: String) throws(ArgumentError) -> ParsedShard {
        let reason = "expected a shard K/N with 1 <= K <= N, such as 1/4"
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let index = wholeNumber(parts[0]),
              let count = wholeNumber(parts[1]), index >= 1, index <= count
        else { throw .invalidValue(option: option, value: text, reason: reason) }
        return ParsedShard(index: index, count: count)
    }

    /// The value of a plain run of ASCII digits, or nil if it is anything else or overflows.
    private static func wholeNumber(_ text: Substring) -> Int? {
        guard let literal = DecimalLiteral(text), literal.fractionDigits.isEmpty,
              let value = DecimalLiteral.integer(literal.integerDigits) else { return nil }
        return Int(exactly: value)
    }
}
