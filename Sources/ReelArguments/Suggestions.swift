/// Finding the known name closest to a mistyped one.
enum Suggestions {
    /// The candidate closest to `input` by edit distance, if close enough to be a likely typo.
    ///
    /// Ties go to the earlier candidate, so the result is deterministic.
    static func closest(to input: String, among candidates: [String]) -> String? {
        let typed = Array(input.lowercased())
        guard !typed.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= threshold(forLength: max(typed.count, candidate.count)),
               distance < candidate.count,
               distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The largest distance still treated as a typo for names of `length` characters.
    static func threshold(forLength length: Int) -> Int {
        switch length {
        case ...3: return 1
        case ...6: return 2
        default: return 3
        }
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and
    /// swaps of adjacent characters each cost one.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = value
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
