import ReelArguments

/// `--report FILE`: also write the HTML page of `reel report`.
enum ReportOption {
    /// The key, for the page of a compression's result (with the source's analysis).
    static let result = OptionKey<String>(
        "report", valueName: "FILE",
        help: "Also write an HTML page of the result: before and after, ranges kept, bit rate over time (one input).")

    /// The same key, for the page of an analysis.
    static let analysis = result.declared(help: "Also write the HTML report of the analysis (see 'reel report').")
}
