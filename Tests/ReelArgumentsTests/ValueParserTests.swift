import ReelArguments
import Testing

@Suite("Numeric value parsers", .timeLimit(.minutes(5)))
struct ValueParserTests {
    @Test("bitrate accepts suffixed and plain numbers", arguments: [
        ("2M", 2_000_000), ("2.5M", 2_500_000), ("800k", 800_000), ("800K", 800_000),
        ("2000000", 2_000_000), ("96k", 96_000), ("1G", 1_000_000_000), ("2m", 2_000_000),
        ("1.5k", 1_500), ("0.5M", 500_000), ("2.50M", 2_500_000), ("1.000000001G", 1_000_000_001),
    ])
    func bitrateGood(text: String, expected: Int) throws {
        #expect(try ValueParsers.bitrate(text, option: "--bitrate") == expected)
    }

    @Test("bitrate rejects bad input", arguments: [
        "", "-2M", "abc", "M", "2MM", "2 M", "1e6", "1.5", "0", "0k", "1.0000000001G",
        "99999999999G", "99999999999999999999", "+2M", ".5M", "2.M",
    ])
    func bitrateBad(text: String) {
        #expect(throws: ArgumentError.self) { try ValueParsers.bitrate(text, option: "--bitrate") }
    }

    @Test("bitrate errors name the option, the value and an example", arguments: [
        ("abc", "invalid value 'abc' for '--bitrate': expected bits per second such as 2M, 2.5M, 800k or 2000000"),
        ("-2M", "invalid value '-2M' for '--bitrate': a bitrate must be positive, such as 2M, 2.5M, 800k or 2000000"),
        ("0", "invalid value '0' for '--bitrate': a bitrate must be greater than zero, such as 2M, 2.5M, 800k or 2000000"),
        ("1.5", "invalid value '1.5' for '--bitrate': a bitrate must come to whole bits per second, such as 2M, 2.5M, 800k or 2000000"),
        ("99999999999G", "invalid value '99999999999G' for '--bitrate': bitrate is too large; use a value such as 2M, 2.5M, 800k or 2000000"),
    ])
    func bitrateMessages(text: String, message: String) {
        #expect(thrownMessage { () throws(ArgumentError) in
            try ValueParsers.bitrate(text, option: "--bitrate")
        } == message)
    }

    @Test("positive integers", arguments: [("1", 1), ("4", 4), ("007", 7), ("9223372036854775807", Int.max)])
    func positiveIntegerGood(text: String, expected: Int) throws {
        #expect(try ValueParsers.positiveInteger(text, option: "--threads") == expected)
    }

    @Test("positive integers reject bad input", arguments: [
        "0", "-3", "1.5", "abc", "", "9223372036854775808", "4 ", "+4",
    ])
    func positiveIntegerBad(text: String) {
        #expect(throws: ArgumentError.self) { try ValueParsers.positiveInteger(text, option: "--threads") }
    }

    @Test("positive doubles and ratios", arguments: [
        ("24", 24.0), ("29.97", 29.97), ("30000/1001", 30000.0 / 1001.0), ("0.5", 0.5),
    ])
    func positiveDoubleGood(text: String, expected: Double) throws {
        #expect(try ValueParsers.positiveDouble(text, option: "--fps") == expected)
    }

    @Test("positive doubles reject bad input", arguments: [
        "0", "-24", "abc", "", "inf", "nan", "1e3", "24/0", "0/5", "1/2/3", "/2", "24fps",
    ])
    func positiveDoubleBad(text: String) {
        #expect(throws: ArgumentError.self) { try ValueParsers.positiveDouble(text, option: "--fps") }
    }

    @Test("positive double error message")
    func positiveDoubleMessage() {
        #expect(throws: ArgumentError.invalidValue(
            option: "--fps", value: "fast",
            reason: "expected a number greater than zero, such as 24, 29.97 or 30000/1001")) {
            try ValueParsers.positiveDouble("fast", option: "--fps")
        }
    }

    @Test("fractions from 0 to 1", arguments: [("0.7", 0.7), ("0", 0.0), ("1", 1.0), ("1.000", 1.0), ("0.25", 0.25)])
    func fractionGood(text: String, expected: Double) throws {
        #expect(try ValueParsers.fraction(text, option: "--quality") == expected)
    }

    @Test("fractions reject values outside 0...1", arguments: ["1.01", "-0.1", "2", "", "high", ".7"])
    func fractionBad(text: String) {
        #expect(throws: ArgumentError.invalidValue(
            option: "--quality", value: text, reason: "expected a number from 0 to 1, such as 0.7")) {
            try ValueParsers.fraction(text, option: "--quality")
        }
    }

    @Test("shards K/N", arguments: [("1/4", 1, 4), ("4/4", 4, 4), ("1/1", 1, 1), ("3/10", 3, 10)])
    func shardGood(text: String, index: Int, count: Int) throws {
        let shard = try ValueParsers.shard(text, option: "--shard")
        #expect(shard == ParsedShard(index: index, count: count))
        #expect(shard.zeroBasedIndex == index - 1)
    }

    @Test("shards reject K outside 1...N and malformed text", arguments: [
        "0/4", "5/4", "1/0", "-1/4", "1/", "/4", "1-4", "1/4/2", "", "a/b", "1.5/4",
    ])
    func shardBad(text: String) {
        #expect(throws: ArgumentError.invalidValue(
            option: "--shard", value: text, reason: "expected a shard K/N with 1 <= K <= N, such as 1/4")) {
            try ValueParsers.shard(text, option: "--shard")
        }
    }
}
