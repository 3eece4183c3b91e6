/// Word wrapping and column layout for help text.
enum TextLayout {
    /// Greedily packs `words` into lines no wider than `width` where possible.
    ///
    /// The first line starts with `firstPrefix`, later ones with `restPrefix`; a word too
    /// long for any line gets a line of its own rather than being split.
    static func wrap(
        words: [String], width: Int, firstPrefix: String, restPrefix: String
    ) -> [String] {
        var lines: [String] = []
        var line = firstPrefix
        var lineHasWord = false
        for word in words {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = restPrefix
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    /// Wraps prose, splitting it into words at spaces.
    static func wrap(
        _ text: String, width: Int, firstPrefix: String, restPrefix: String
    ) -> [String] {
        let words = text.split(separator: " ").map(String.init)
        return wrap(words: words, width: width, firstPrefix: firstPrefix, restPrefix: restPrefix)
    }

    /// Wraps multi-line prose line by line, keeping blank lines and each line's indentation;
    /// list items starting with `- ` or `* ` continue under their text.
    static func wrapParagraphs(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = String(line.prefix { $0 == " " })
            let body = line.dropFirst(indent.count)
            if body.isEmpty {
                lines.append("")
                continue
            }
            let isListItem = body.hasPrefix("- ") || body.hasPrefix("* ")
            let hanging = indent + (isListItem ? "  " : "")
            lines += wrap(String(body), width: width, firstPrefix: indent, restPrefix: hanging)
        }
        return lines
    }

    /// Lays out `rows` as two aligned columns: left text, then wrapped right text.
    ///
    /// The right column starts after the widest left text no wider than `maxLeftWidth`; a
    /// wider left text sits on its own line with its right text below it.
    static func columns(
        _ rows: [(left: String, right: String)], indent: Int, maxLeftWidth: Int, width: Int
    ) -> [String] {
        let leftWidth = rows.map(\.left.count).filter { $0 <= maxLeftWidth }.max() ?? 0
        let pad = String(repeating: " ", count: indent)
        let rightPrefix = String(repeating: " ", count: indent + leftWidth + 2)
        var lines: [String] = []
        for row in rows {
            if row.left.count > leftWidth {
                lines.append(pad + row.left)
                if !row.right.isEmpty {
                    lines += wrap(
                        row.right, width: width, firstPrefix: rightPrefix, restPrefix: rightPrefix)
                }
                continue
            }
            let gap = String(repeating: " ", count: leftWidth - row.left.count + 2)
            let wrapped = wrap(
                row.right, width: width, firstPrefix: pad + row.left + gap, restPrefix: rightPrefix)
            lines += wrapped.map { trimmingTrailingSpaces($0) }
        }
        return lines
    }

    /// Breaks a shell command across lines with ` \` continuations, so that every line still
    /// pastes into a shell; quoted words and option-value pairs are never split.
    static func wrapCommand(_ command: String, width: Int, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let words = commandChunks(command)
        var lines: [String] = []
        var line = pad
        var lineHasWord = false
        for (position, word) in words.enumerated() {
            let isLast = position == words.count - 1
            let reserve = isLast ? 0 : 2
            if lineHasWord, line.count + 1 + word.count + reserve > width {
                lines.append(line + " \\")
                line = pad + "    "
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    /// The command's words, with each option joined to the value after it (`--preset high`)
    /// so that line breaks fall between options rather than inside one.
    static func commandChunks(_ command: String) -> [String] {
        var chunks: [String] = []
        var pendingOption: String?
        for word in shellWords(command) {
            if let option = pendingOption {
                pendingOption = nil
                if !word.hasPrefix("-") {
                    chunks.append(option + " " + word)
                    continue
                }
                chunks.append(option)
            }
            if word.hasPrefix("-") { pendingOption = word } else { chunks.append(word) }
        }
        if let option = pendingOption { chunks.append(option) }
        return chunks
    }

    /// Splits a command at spaces outside single or double quotes, keeping the quotes.
    static func shellWords(_ command: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        for character in command {
            if let open = quote {
                if character == open { quote = nil }
                current.append(character)
            } else if character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                if character == "'" || character == "\"" { quote = character }
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `line` without spaces at its end.
    static func trimmingTrailingSpaces(_ line: String) -> String {
        var result = line
        while result.last == " " { result.removeLast() }
        return result
    }
}
