import Foundation
import ReelArguments
import ReelKit

/// `--target-size`: a file size (`25M`, `25MB`, `800k`, `1.5G`: powers of 1000; `25MiB`,
/// `512KiB`: powers of 1024; `3000000`: bytes) or a share of the source (`40%`).
enum TargetSizeOption {
    static let example = "such as 25M, 25MB, 24MiB, 800k, 3000000 or 40%"

    static func parse(_ text: String, option: String) throws(ArgumentError) -> TargetFileSize {
        func fail(_ reason: String) -> ArgumentError { .invalidValue(option: option, value: text, reason: reason) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") {
            guard let percent = Double(trimmed.dropLast()), percent > 0, percent < 100 else {
                throw fail("a share of the source is between 0 and 100%, \(example)")
            }
            return .percentOfSource(percent)
        }
        let units: [(suffix: String, factor: Double)] = [
            ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824),
            ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("k", 1e3), ("m", 1e6), ("g", 1e9), ("b", 1),
        ]
        let lower = trimmed.lowercased()
        let unit = units.first { lower.hasSuffix($0.suffix) } ?? ("", 1)
        guard let number = Double(lower.dropLast(unit.suffix.count)), number.isFinite else {
            throw fail("expected a size \(example)")
        }
        let bytes = (number * unit.factor).rounded(.down)
        guard bytes >= 1 else { throw fail("a size must be at least one byte, \(example)") }
        guard bytes < 9e18 else { throw fail("too large, \(example)") }
        return .bytes(Int64(bytes))
    }
}
