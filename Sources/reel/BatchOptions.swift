import ReelArguments

/// `-j, --jobs`, `--shard` and `--dry-run`: how a batch of inputs is run.
struct BatchOptions: Sendable {
    /// The keys.
    enum Keys {
        static let jobs = OptionKey<Int>(
            "jobs", short: "j", valueName: "N", help: "Files compressed at once in a batch (default 1).",
            parse: ValueParsers.positiveInteger)
        static let shard = OptionKey<ParsedShard>(
            "shard", valueName: "K/N", help: "Only the K-th of N slices of the sorted inputs, e.g. 2/8.",
            parse: ValueParsers.shard)
        static let dryRun = FlagKey("dry-run", help: "Show what would be compressed or skipped; write nothing.")
    }

    /// The declarations, in help order.
    static let specs = [Keys.jobs.spec, Keys.shard.spec, Keys.dryRun.spec]

    /// `--jobs` (1 when absent).
    let jobs: Int
    /// `--shard`.
    let shard: ParsedShard?
    /// `--dry-run`.
    let dryRun: Bool

    /// Reads the options.
    init(_ arguments: ParsedArguments) throws(ArgumentError) {
        jobs = try arguments.value(Keys.jobs) ?? 1
        shard = try arguments.value(Keys.shard)
        dryRun = try arguments.isSet(Keys.dryRun)
    }

    /// `--shard` as typed, for messages.
    var shardText: String {
        shard.map { "\($0.index)/\($0.count)" } ?? "1/1"
    }
}
