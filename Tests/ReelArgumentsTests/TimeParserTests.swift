import ReelArguments
import Testing

@Suite("Time and range parsers", .timeLimit(.minutes(5)))
struct TimeParserTests {
    @Test("times parse to exact rationals", arguments: [
        ("12", 12, 1), ("1.5", 15, 10), ("0.25", 25, 100), ("0", 0, 1),
        ("00:00:12.250", 12_250, 1_000), ("01:30", 90, 1), ("1:02:03", 3_723, 1),
        ("00:01:30.5", 905, 10), ("10:00:00", 36_000, 1), ("123:00:00", 442_800, 1),
        ("1.123456789", 1_123_456_789, 1_000_000_000), ("59:59.999", 3_599_999, 1_000),
        ("3600", 3_600, 1), ("0.000000001", 1, 1_000_000_000),
    ] as [(String, Int64, Int32)])
    func timeGood(text: String, value: Int64, timescale: Int32) throws {
        let time = try ValueParsers.time(text, option: "--start")
        #expect(time.value == value)
        #expect(time.timescale == timescale)
    }

    @Test("seconds converts exactly representable times")
    func seconds() throws {
        #expect(try ValueParsers.time("00:00:12.250", option: "--at").seconds == 12.25)
        #expect(try ValueParsers.time("1:00:00.5", option: "--at").seconds == 3600.5)
        #expect(ParsedTime(value: 15, timescale: 10).description == "15/10")
    }

    @Test("times reject bad input", arguments: [
        "", "abc", "-1", "1:60", "00:60:00", "00:00:60", "1:2:3", "1:5", "::", "1::2",
        "1:00:00:00", "1.5:00", "1.", ".5", "12s", "1,5", " 12", "1.1234567890", "01:30.",
        "99999999999999999999", "9999999999999999:00:00",
    ])
    func timeBad(text: String) {
        #expect(throws: ArgumentError.self) { try ValueParsers.time(text, option: "--start") }
    }

    @Test("time errors explain the rule that was broken", arguments: [
        ("00:75:00", "invalid value '00:75:00' for '--start': minutes must be below 60; write 90 minutes as 1:30:00"),
        ("90:00", "invalid value '90:00' for '--start': minutes must be below 60; write 90 minutes as 1:30:00"),
        ("01:75", "invalid value '01:75' for '--start': seconds must be below 60; write 75 seconds as 01:15 or 75"),
        ("-2", "invalid value '-2' for '--start': a time must not be negative; use a value such as 12.5 or 00:01:30.250"),
        ("soon", "invalid value 'soon' for '--start': expected seconds or HH:MM:SS, such as 12.5 or 00:01:30.250"),
        ("1:5:00", "invalid value '1:5:00' for '--start': minutes and seconds after ':' take two digits, such as 1:05:09"),
        ("0.1234567891", "invalid value '0.1234567891' for '--start': at most 9 decimal places (nanoseconds) are kept, such as 1.123456789"),
    ])
    func timeMessages(text: String, message: String) {
        #expect(thrownMessage { () throws(ArgumentError) in
            try ValueParsers.time(text, option: "--start")
        } == message)
    }

    @Test("signed times accept a leading minus", arguments: [
        ("-1", -1, 1), ("-1.5", -15, 10), ("-00:00:02.5", -25, 10), ("2", 2, 1),
    ] as [(String, Int64, Int32)])
    func signedTime(text: String, value: Int64, timescale: Int32) throws {
        #expect(try ValueParsers.signedTime(text, option: "--offset") == ParsedTime(value: value, timescale: timescale))
    }

    @Test("signed times still reject garbage", arguments: ["--1", "-", "-a", "- 1"])
    func signedTimeBad(text: String) {
        #expect(throws: ArgumentError.self) { try ValueParsers.signedTime(text, option: "--offset") }
    }

    @Test("durations must be positive", arguments: ["0", "0.000", "00:00:00", "-1"])
    func durationBad(text: String) {
        #expect(throws: ArgumentError.self) { try ValueParsers.duration(text, option: "--length") }
    }

    @Test("durations parse like times")
    func durationGood() throws {
        #expect(try ValueParsers.duration("00:00:30", option: "--length") == ParsedTime(value: 30, timescale: 1))
        #expect(try ValueParsers.duration("0.04", option: "--length") == ParsedTime(value: 4, timescale: 100))
    }

    @Test("range lists with seconds and clock times")
    func rangesGood() throws {
        let t = { (value: Int64, scale: Int32) in ParsedTime(value: value, timescale: scale) }
        #expect(try ValueParsers.timeRanges("1.5-4,10-14.2", option: "--range") == [
            ParsedTimeRange(start: t(15, 10), end: t(4, 1)),
            ParsedTimeRange(start: t(10, 1), end: t(142, 10)),
        ])
        #expect(try ValueParsers.timeRanges("00:01:00-00:01:30.5", option: "--range") == [
            ParsedTimeRange(start: t(60, 1), end: t(905, 10)),
        ])
        #expect(try ValueParsers.timeRanges("0-1:00, 1:00:00-1:00:00.001", option: "--range") == [
            ParsedTimeRange(start: t(0, 1), end: t(60, 1)),
            ParsedTimeRange(start: t(3600, 1), end: t(3_600_001, 1000)),
        ])
    }

    @Test("range lists reject malformed and empty ranges", arguments: [
        "", "4-1.5", "2-2", "2.0-2", "1-2-3", "1-", "-2", "1-2,", ",1-2", "1-2,,3-4", "a-b",
        "1:75-2:00", "00:01:30-00:01:00", "1.5", "1-2;3-4",
    ])
    func rangesBad(text: String) {
        #expect(throws: ArgumentError.self) { try ValueParsers.timeRanges(text, option: "--range") }
    }

    @Test("range errors point at the offending range", arguments: [
        ("1-2,4-1.5", "invalid value '4-1.5' for '--range': a range must end after it starts, such as 1.5-4"),
        ("1-2,3", "invalid value '3' for '--range': expected START-END ranges separated by commas, such as 1.5-4,10-14.2 or 00:01:00-00:01:30.5"),
        ("1-2,,3-4", "invalid value '1-2,,3-4' for '--range': expected START-END ranges separated by commas, such as 1.5-4,10-14.2 or 00:01:00-00:01:30.5"),
        ("0-01:61", "invalid value '01:61' for '--range': seconds must be below 60; write 75 seconds as 01:15 or 75"),
    ])
    func rangeMessages(text: String, message: String) {
        #expect(thrownMessage { () throws(ArgumentError) in
            try ValueParsers.timeRanges(text, option: "--range")
        } == message)
    }
}
