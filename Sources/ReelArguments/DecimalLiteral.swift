/// An unsigned decimal number as written, such as `12`, `2.5` or `0.250`, split into digits.
///
/// Parsing works on the digits so that values stay exact: no `Double` rounding.
struct DecimalLiteral: Hashable {
    /// The digits before the decimal point; never empty.
    let integerDigits: [Int]
    /// The digits after the decimal point; empty when there is no point.
    let fractionDigits: [Int]

    /// Splits `text` into digits; nil unless it is `DIGITS` or `DIGITS.DIGITS` in ASCII.
    init?(_ text: Substring) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let integer = Self.digits(first), !integer.isEmpty else {
            return nil
        }
        var fraction: [Int] = []
        if parts.count == 2 {
            guard let digits = Self.digits(parts[1]), !digits.isEmpty else { return nil }
            fraction = digits
        }
        integerDigits = integer
        fractionDigits = fraction
    }

    /// Splits `text` into digits; nil unless it is `DIGITS` or `DIGITS.DIGITS` in ASCII.
    init?(_ text: String) {
        self.init(Substring(text))
    }

    /// The ASCII digits of `text` as numbers, or nil if any character is not one.
    private static func digits(_ text: Substring) -> [Int]? {
        var result: [Int] = []
        for scalar in text.unicodeScalars {
            guard scalar.value >= 48, scalar.value <= 57 else { return nil }
            result.append(Int(scalar.value - 48))
        }
        return result
    }

    /// Folds `digits` into an integer, or nil on overflow.
    static func integer(_ digits: [Int]) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(Int64(digit))
            if overflowA || overflowB { return nil }
            value = sum
        }
        return value
    }

    /// `10^exponent`, or nil on overflow.
    static func powerOfTen(_ exponent: Int) -> Int64? {
        var value: Int64 = 1
        for _ in 0..<max(0, exponent) {
            let (next, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            value = next
        }
        return value
    }

    /// The number as an exact fraction `numerator / 10^fractionDigits.count`, or nil on overflow.
    var scaledValue: (numerator: Int64, denominator: Int64)? {
        guard let numerator = Self.integer(integerDigits + fractionDigits),
              let denominator = Self.powerOfTen(fractionDigits.count) else { return nil }
        return (numerator, denominator)
    }

    /// The fraction digits without trailing zeros, so `2.50` and `2.5` compare alike.
    var significantFractionDigits: [Int] {
        var digits = fractionDigits
        while digits.last == 0 { digits.removeLast() }
        return digits
    }

    /// The nearest `Double`, for parsers whose result is a `Double` anyway.
    var doubleValue: Double? {
        let text = integerDigits.map(String.init).joined()
            + (fractionDigits.isEmpty ? "" : "." + fractionDigits.map(String.init).joined())
        return Double(text)
    }
}
