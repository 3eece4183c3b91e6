extension ValueParsers {
    /// The example appended to every time error.
    private static let timeExample = "such as 12.5 or 00:01:30.250"

    /// Parses a non-negative time: seconds (`12`, `1.5`) or `[H]H:MM:SS[.fff]` / `MM:SS[.fff]`.
    public static func time(_ text: String, option: String) throws(ArgumentError) -> ParsedTime {
        try parseTime(text, option: option, allowNegative: false)
    }

    /// Parses a time that may be negative, such as `-1.5` or `-00:00:02`.
    public static func signedTime(
        _ text: String, option: String
    ) throws(ArgumentError) -> ParsedTime {
        try parseTime(text, option: option, allowNegative: true)
    }

    /// Parses a duration: a time greater than zero, such as `2.5` or `00:00:30`.
    public static func duration(
        _ text: String, option: String
    ) throws(ArgumentError) -> ParsedTime {
        let time = try parseTime(text, option: option, allowNegative: false)
        guard time.value > 0 else {
            throw .invalidValue(
                option: option, value: text,
                reason: "a duration must be greater than zero, such as 2.5 or 00:00:30")
        }
        return time
    }

    /// Parses comma-separated `START-END` ranges such as `1.5-4,10-14.2` or
    /// `00:01:00-00:01:30.5`; each start must come before its end.
    public static func timeRanges(
        _ text: String, option: String
    ) throws(ArgumentError) -> [ParsedTimeRange] {
        let shape = "expected START-END ranges separated by commas, "
            + "such as 1.5-4,10-14.2 or 00:01:00-00:01:30.5"
        var ranges: [ParsedTimeRange] = []
        for rawItem in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = trimmingSpaces(rawItem)
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, !bounds[0].isEmpty, !bounds[1].isEmpty else {
                let shown = item.isEmpty ? text : item
                throw .invalidValue(option: option, value: shown, reason: shape)
            }
            let start = try time(String(bounds[0]), option: option)
            let end = try time(String(bounds[1]), option: option)
            guard start.isBefore(end) else {
                throw .invalidValue(
                    option: option, value: item,
                    reason: "a range must end after it starts, such as 1.5-4")
            }
            ranges.append(ParsedTimeRange(start: start, end: end))
        }
        return ranges
    }

    /// `text` without leading and trailing spaces.
    private static func trimmingSpaces(_ text: Substring) -> String {
        let start = text.firstIndex { $0 != " " } ?? text.endIndex
        let end = text.lastIndex { $0 != " " }.map { text.index(after: $0) } ?? start
        return String(text[start..<max(start, end)])
    }

    /// Parses seconds or a colon-separated clock time into an exact `ParsedTime`.
    private static func parseTime(
        _ text: String, option: String, allowNegative: Bool
    ) throws(ArgumentError) -> ParsedTime {
        func fail(_ reason: String) -> ArgumentError {
            .invalidValue(option: option, value: text, reason: reason)
        }
        var body = Substring(text)
        let isNegative = body.first == "-"
        if isNegative {
            guard allowNegative else {
                throw fail("a time must not be negative; use a value \(timeExample)")
            }
            body = body.dropFirst()
        }
        let fields = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count), let last = fields.last,
              let seconds = DecimalLiteral(last) else {
            throw fail("expected seconds or HH:MM:SS, \(timeExample)")
        }
        var units: [Int64] = []
        for field in fields.dropLast() {
            guard let literal = DecimalLiteral(field), literal.fractionDigits.isEmpty,
                  let value = DecimalLiteral.integer(literal.integerDigits) else {
                throw fail("expected seconds or HH:MM:SS, \(timeExample)")
            }
            units.append(value)
        }
        if fields.count > 1 {
            let trailing = fields.dropFirst().map { $0.prefix { $0 != "." }.count }
            guard trailing.allSatisfy({ $0 == 2 }) else {
                throw fail("minutes and seconds after ':' take two digits, such as 1:05:09")
            }
            guard let minutes = units.last, minutes < 60 else {
                throw fail("minutes must be below 60; write 90 minutes as 1:30:00")
            }
            guard let whole = DecimalLiteral.integer(seconds.integerDigits), whole < 60 else {
                throw fail("seconds must be below 60; write 75 seconds as 01:15 or 75")
            }
        }
        guard seconds.fractionDigits.count <= 9 else {
            throw fail("at most 9 decimal places (nanoseconds) are kept, such as 1.123456789")
        }
        guard let total = exactTicks(units: units, seconds: seconds) else {
            throw fail("time is too large; use a value \(timeExample)")
        }
        guard let scale = DecimalLiteral.powerOfTen(seconds.fractionDigits.count),
              let timescale = Int32(exactly: scale) else {
            throw fail("at most 9 decimal places (nanoseconds) are kept, such as 1.123456789")
        }
        return ParsedTime(value: isNegative ? -total : total, timescale: timescale)
    }

    /// `(hours * 60 + minutes) * 60 + seconds` in ticks of the seconds' decimal places,
    /// or nil on overflow.
    private static func exactTicks(units: [Int64], seconds: DecimalLiteral) -> Int64? {
        var minutes: Int64 = 0
        for unit in units {
            let (scaled, overflowA) = minutes.multipliedReportingOverflow(by: 60)
            let (sum, overflowB) = scaled.addingReportingOverflow(unit)
            if overflowA || overflowB { return nil }
            minutes = sum
        }
        guard let (fieldTicks, scale) = seconds.scaledValue else { return nil }
        let (minuteTicks, overflowA) = minutes.multipliedReportingOverflow(by: 60 * scale)
        let (total, overflowB) = minuteTicks.addingReportingOverflow(fieldTicks)
        return overflowA || overflowB ? nil : total
    }
}
