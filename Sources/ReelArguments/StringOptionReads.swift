// The string-name reads that came before typed keys; they go once no caller is left.
extension ParsedArguments {
    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool {
        count(name) > 0
    }

    /// How many times the flag or option `--name` was given.
    public func count(_ name: String) -> Int {
        flagCounts[name] ?? optionValues[name]?.count ?? 0
    }

    /// The value of option `--name`, or nil when absent; the last one if it was repeated.
    public func value(_ name: String) -> String? {
        optionValues[name]?.last
    }

    /// Every value of option `--name`, in the order given; empty when absent.
    public func values(_ name: String) -> [String] {
        optionValues[name] ?? []
    }

    /// The value of `--name` converted by `parse`, or nil when absent.
    public func value<T>(
        _ name: String, as parse: (String, String) throws(ArgumentError) -> T
    ) throws(ArgumentError) -> T? {
        guard let text = value(name) else { return nil }
        return try parse(text, "--" + name)
    }

    /// Every value of `--name` converted by `parse`, in the order given.
    public func values<T>(
        _ name: String, as parse: (String, String) throws(ArgumentError) -> T
    ) throws(ArgumentError) -> [T] {
        var result: [T] = []
        for text in values(name) {
            result.append(try parse(text, "--" + name))
        }
        return result
    }
}
