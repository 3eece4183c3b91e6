import Foundation

/// Numbers as people read them: sizes, bit rates, durations, speeds.
enum Formatting {
    /// Bytes in decimal units: `980 B`, `12.3 kB`, `4.56 MB`, `1.20 GB`.
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        switch value {
        case ..<1_000: return "\(count) B"
        case ..<1_000_000: return String(format: "%.1f kB", value / 1_000)
        case ..<1_000_000_000: return String(format: "%.2f MB", value / 1_000_000)
        default: return String(format: "%.2f GB", value / 1_000_000_000)
        }
    }

    /// Bits per second: `96 kb/s`, `2.35 Mb/s`.
    static func bitrate(_ bitsPerSecond: Double) -> String {
        switch bitsPerSecond {
        case ..<1_000: return String(format: "%.0f b/s", bitsPerSecond)
        case ..<1_000_000: return String(format: "%.0f kb/s", bitsPerSecond / 1_000)
        default: return String(format: "%.2f Mb/s", bitsPerSecond / 1_000_000)
        }
    }

    /// Seconds with millisecond precision: `12.250 s`.
    static func seconds(_ value: Double) -> String {
        String(format: "%.3f s", value)
    }

    /// A wall-clock span: `0:07`, `12:30`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(max(seconds, 0).rounded())
        let (hours, minutes, secs) = (total / 3600, (total / 60) % 60, total % 60)
        if hours > 0 { return String(format: "%d:%02d:%02d", hours, minutes, secs) }
        return String(format: "%d:%02d", minutes, secs)
    }

    /// A short elapsed time: `0.8 s`, `42.1 s`, `3:05`.
    static func elapsed(_ seconds: Double) -> String {
        seconds < 60 ? String(format: "%.1f s", seconds) : clock(seconds)
    }

    /// How much larger a file grew, `factor` its new size over its old: `4% larger` below
    /// twice the size (where `1.0x larger` says nothing), `2.3x larger` from there.
    static func growth(_ factor: Double) -> String {
        factor < 1.995 ? String(format: "%.0f%% larger", max((factor - 1) * 100, 1)) : speed(factor) + " larger"
    }

    /// A speed relative to real time: `2.3x`, `0.45x`, `120x`.
    static func speed(_ factor: Double) -> String {
        switch factor {
        case ..<1: return String(format: "%.2fx", factor)
        case ..<100: return String(format: "%.1fx", factor)
        default: return String(format: "%.0fx", factor)
        }
    }

    /// A frame rate without needless decimals: `30`, `29.97`, `23.976`.
    static func frameRate(_ fps: Double) -> String {
        let text = String(format: "%.3f", fps)
        var trimmed = Substring(text)
        while trimmed.last == "0" { trimmed = trimmed.dropLast() }
        if trimmed.last == "." { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// `text` padded with spaces to `width` characters (never cut).
    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
