import Foundation
import Testing

/// Help, version, and the usage errors that end with exit status 2.
@Suite(.timeLimit(.minutes(5))) struct HelpAndUsageTests {
    @Test func overviewListsEveryCommand() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try await Reel.run(["--help"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "debug builds report an unsound spec on stderr: \(run.stderr)")
        for word in ["USAGE: reel COMMAND", "compress", "presets", "probe", "--version"] {
            #expect(run.stdout.contains(word), "missing \(word)")
        }
    }

    @Test(arguments: [
        (["compress", "--help"], ["USAGE: reel compress", "EXAMPLES:", "--shard K/N", "--jobs N",
                                  "--output-dir DIR", "reel compress ~/clips/"]),
        (["help", "probe"], ["USAGE: reel probe", "EXAMPLES:", "reel probe holiday.mov"]),
        (["presets", "-h"], ["USAGE: reel presets", "EXAMPLES:", "REEL_PRESETS_DIR"]),
        (["faces", "--help"], ["USAGE: reel faces SUBCOMMAND", "SUBCOMMANDS:", "  identify  ", "  purge  ",
                               "'reel help faces SUBCOMMAND'"]),
    ])
    func commandHelpShowsUsageAndExamples(arguments: [String], expected: [String]) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try await Reel.run(arguments, in: scratch.url)
        #expect(run.status == 0)
        for text in expected {
            #expect(run.stdout.contains(text), "missing \(text) in \(arguments)")
        }
    }

    /// Each command's help names its own outputs: a reel is IN-highlights.EXT, in --output-dir too.
    @Test func highlightsHelpNamesItsOwnOutputs() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try await Reel.run(["help", "highlights"], in: scratch.url)
        #expect(run.status == 0)
        let outputDirectory = run.stdout.components(separatedBy: "--output-dir DIR").last?
            .prefix { $0 != "(" }.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(outputDirectory == "Directory for outputs named IN-highlights.EXT", "\(run.stdout)")
        #expect(!run.stdout.contains("IN-compressed"))
    }

    /// A faces subcommand's help shows its own options and arguments, not its siblings'.
    @Test(arguments: [
        (["faces", "add", "--help"], ["USAGE: reel faces add", "--update", "--models DIR", "PATH..."], ["--sheet", "IMAGE"]),
        (["help", "faces", "people"], ["USAGE: reel faces people", "--sheet FILE"], ["--update", "--models", "PATH"]),
        (["faces", "identify", "-h"], ["USAGE: reel faces identify", "--models DIR", "IMAGE..."], ["--update", "--sheet"]),
        (["help", "faces", "purge"], ["USAGE: reel faces purge [--index DIR] [--json] [--quiet]"], ["--models", "PATH"]),
    ])
    func facesSubcommandHelpShowsItsOwnOptions(arguments: [String], present: [String], absent: [String]) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try await Reel.run(arguments, in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        for text in present { #expect(run.stdout.contains(text), "missing \(text) in \(arguments)") }
        for text in absent { #expect(!run.stdout.contains(text), "\(text) in \(arguments)") }
    }

    @Test func versionPrintsNameAndNumber() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try await Reel.run(["--version"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("reel "))
        #expect(run.stderr.isEmpty)
    }

    /// Each case: the arguments, and a piece of the one-line message.
    @Test(arguments: [
        (["compress", "--bitrat", "2M", "a.mp4"], "did you mean '--bitrate'?"),
        (["compres", "a.mp4"], "did you mean 'compress'?"),
        (["compress", "--preset", "hgh", "a.mp4"], "did you mean 'high'?"),
        (["compress", "--bitrate", "2X", "a.mp4"], "such as 2M"),
        (["compress", "--start", "5", "--end", "00:00:02", "a.mp4"], "after --start"),
        (["compress", "--start", "1:75", "a.mp4"], "--start"),
        (["compress", "--shard", "3/2", "a.mp4"], "K/N"),
        (["highlights", "--min-level", "9.5", "a.mp4"], "levels go from 0 to 9"),
        (["highlights", "--min-level", "-1", "a.mp4"], "levels go from 0 to 9"),
        (["compress", "--jobs", "0", "a.mp4"], "--jobs"),
        (["compress", "--quality", "1.5", "a.mp4"], "from 0 to 1"),
        (["compress", "--max-dimension", "8", "a.mp4"], "maxLongerDimension"),
        (["compress", "--max-dimension", "640", "--max-size", "640", "a.mp4"], "not both"),
        (["compress", "--no-audio", "--audio-bitrate", "96k", "a.mp4"], "--no-audio"),
        (["compress", "-o", "x.mp4", "a.mp4", "b.mp4"], "--output-dir"),
        (["compress", "-o", "x.avi", "a.mp4"], ".mp4, .mov, .webm, .mkv, .gif or .webp"),
        (["compress", "--preset", "low", "--preset-file", "p.json", "a.mp4"], "not both"),
        (["compress", "--seed", "4", "a.mp4"], "--reducer random"),
        // Options a command would ignore are not accepted: split writes no report, a plan re-encodes.
        (["split", "a.mp4", "--shots", "-o", "x", "--report", "r.html"], "unknown option '--report' for 'split'"),
        (["plan", "a.mp4", "--copy"], "unknown option '--copy' for 'plan'"),
        (["faces"], "missing subcommand for 'faces'"),
        (["faces", "ad", "x.jpg"], "unknown subcommand 'ad' for 'faces'; did you mean 'add'?"),
        (["faces", "people", "--update"], "unknown option '--update' for 'faces people'"),
        (["faces", "update", "x.jpg"], "'faces update' takes no arguments"),
        (["faces", "identify", "--index", "idx"], "missing required argument IMAGE for 'faces identify'"),
        (["compress"], "INPUT"),
        ([], "missing command"),
    ])
    func usageErrorsExitWithTwoAndOneLine(arguments: [String], message: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let run = try await Reel.run(arguments, in: scratch.url)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("reel: "))
        #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    }
}
