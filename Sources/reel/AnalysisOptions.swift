import ReelArguments
import ReelKit

/// `--analysis FILE` (a saved analysis instead of a fresh one) and, where a command runs the
/// analyzer with settings of its own, `--sample-rate` and `--no-faces`.
struct AnalysisOptions: Sendable {
    /// Which of the options a command takes.
    struct Shape: Sendable {
        /// The help of `--analysis`, or nil when the command always analyzes.
        var saved: String?
        /// Whether the command takes `--sample-rate` and `--no-faces`.
        var analyzerSettings = false

        /// A saved analysis instead of analyzing again: the commands that read one video.
        static let savedAnalysis = Shape(saved: "Use this saved analysis ('reel analyze IN --json > FILE') instead of analyzing again.")
    }

    /// The keys.
    enum Keys {
        static let analysis = OptionKey<VideoAnalysis>(
            "analysis", valueName: "FILE", help: "Use this saved analysis ('reel analyze IN --json > FILE').",
            parse: { text, _ throws(ArgumentError) in try SavedAnalysisFile.load(text) })
        static let sampleRate = OptionKey<Double>(
            "sample-rate", valueName: "FPS", help: "Frames measured per second in the main pass (default 6).",
            parse: ValueParsers.positiveDouble)
        static let noFaces = FlagKey("no-faces", help: "Do not look for faces (saves the face pass, about a tenth of the time).")
    }

    /// The declarations `shape` takes.
    static func specs(_ shape: Shape) -> [OptionSpec] {
        var specs: [OptionSpec] = []
        if let help = shape.saved { specs.append(Keys.analysis.declared(help: help).spec) }
        if shape.analyzerSettings { specs += [Keys.sampleRate.spec, Keys.noFaces.spec] }
        return specs
    }

    /// The analysis `--analysis` names, read and decoded.
    let saved: VideoAnalysis?
    /// `--analysis` as typed, for messages.
    let savedPath: String?
    /// The analyzer's settings, with `--sample-rate` and `--no-faces` applied.
    let analyzer: VideoAnalyzer.Options

    /// Reads the options `shape` takes (the same shape `specs` declared); a saved analysis
    /// that cannot be read is an error naming `--analysis`.
    init(_ arguments: ParsedArguments, _ shape: Shape) throws(ArgumentError) {
        var analyzer = VideoAnalyzer.Options()
        if shape.saved != nil {
            savedPath = try arguments.text(Keys.analysis)
            saved = try arguments.value(Keys.analysis)
        } else {
            savedPath = nil
            saved = nil
        }
        if shape.analyzerSettings {
            if let rate = try arguments.value(Keys.sampleRate) { analyzer.sampleRate = rate }
            if try arguments.isSet(Keys.noFaces) { analyzer.faces = nil }
        }
        self.analyzer = analyzer
    }
}
