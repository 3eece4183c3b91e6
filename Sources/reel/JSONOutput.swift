/// A JSON value whose object keys keep the order they were written in, so output is stable.
///
/// Absent values are written as `null` rather than left out, so every object of one kind has
/// the same keys.
indirect enum JSONValue {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text made elsewhere (by `JSONEncoder`), written as it is, on one line.
    case raw(String)

    /// An integer, or `null` when absent.
    init<Value: BinaryInteger>(_ value: Value?) {
        self = value.map { .integer(Int64(clamping: $0)) } ?? .null
    }

    /// A number, or `null` when absent or not finite.
    init<Value: BinaryFloatingPoint>(_ value: Value?) {
        guard let value, value.isFinite else {
            self = .null
            return
        }
        self = .number(Double(value))
    }

    /// A string, or `null` when absent.
    init(_ value: String?) {
        self = value.map { .string($0) } ?? .null
    }

    /// The value as pretty-printed JSON text (two-space indent, no trailing newline).
    func rendered() -> String {
        var text = ""
        write(to: &text, indent: 0)
        return text
    }

    /// Appends the value's JSON text, indenting nested lines by `indent` levels.
    private func write(to text: inout String, indent: Int) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .integer(let value): text += String(value)
        case .number(let value): text += Self.format(value)
        case .string(let value): Self.writeString(value, to: &text)
        case .raw(let json): text += json
        case .array(let items):
            writeContainer(
                items.map { (nil, $0) }, open: "[", close: "]", to: &text, indent: indent)
        case .object(let members):
            writeContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", to: &text,
                           indent: indent)
        }
    }

    /// Writes an array (keys nil) or an object, one member a line.
    private func writeContainer(
        _ members: [(String?, JSONValue)], open: String, close: String, to text: inout String,
        indent: Int
    ) {
        guard !members.isEmpty else {
            text += open + close
            return
        }
        let pad = String(repeating: "  ", count: indent + 1)
        text += open + "\n"
        for (offset, member) in members.enumerated() {
            text += pad
            if let key = member.0 {
                Self.writeString(key, to: &text)
                text += ": "
            }
            member.1.write(to: &text, indent: indent + 1)
            text += offset == members.count - 1 ? "\n" : ",\n"
        }
        text += String(repeating: "  ", count: indent) + close
    }

    /// A finite double in JSON syntax; whole numbers keep a `.0` so their type stays visible.
    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value.description
    }

    /// Appends `value` as a quoted JSON string with the required escapes.
    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
