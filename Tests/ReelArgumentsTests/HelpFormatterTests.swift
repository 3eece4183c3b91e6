import ReelArguments
import Testing

@Suite("Help output", .timeLimit(.minutes(5)))
struct HelpFormatterTests {
    let formatter = HelpFormatter(tool: Fixtures.tool)

    @Test("the tool overview lists usage, commands and how to get command help")
    func overview() {
        #expect(formatter.overview() == """
            OVERVIEW: Compress videos and find their best moments.

            USAGE: reel COMMAND [OPTIONS]

            COMMANDS:
              compress  Compress a video with a preset or explicit settings.
              analyze   Find the best moments of one or more videos.
              trim      Cut a video to ranges.
              help      Show help for a command.

            OPTIONS:
              -h, --help     Show this help.
                  --version  Show the version.

            See 'reel help COMMAND' or 'reel COMMAND --help' for a command's arguments and
            options.
            """)
    }

    @Test("command help has usage, discussion, aligned options and examples")
    func commandHelp() {
        #expect(formatter.help(for: Fixtures.compress) == """
            OVERVIEW: Compress a video with a preset or explicit settings.

            Reads INPUT, re-encodes its video and audio, and writes the result to OUTPUT.
            Explicit settings override the preset's.

            - Presets: low, medium and high trade size for quality in the obvious direction.

            USAGE: reel compress [--output PATH] [--preset NAME] [--bitrate RATE]
                                 [--start TIME] [--range RANGES ...] [--overwrite]
                                 [--verbose ...] INPUT

            ARGUMENTS:
              INPUT  The video to compress.

            OPTIONS:
              -o, --output PATH   Where to write the video.
                  --preset NAME   Quality preset. (one of: low, medium, high)
                  --bitrate RATE  Target video bitrate, e.g. 2M or 800k.
                  --start TIME    Offset to start from; may be negative.
                  --range RANGES  Keep only these ranges. (repeatable)
              -y, --overwrite     Replace OUTPUT if it exists.
              -v, --verbose       Say more. (repeatable)
              -h, --help          Show help for this command.

            EXAMPLES:
              reel compress in.mp4 -o out.mp4 --preset medium
              reel compress holiday.mov --output small.mp4 --bitrate 2.5M \\
                  --range 1.5-4,10-14.2 --overwrite
            """)
    }

    @Test("usage lines show optional and variadic positionals")
    func usage() {
        #expect(formatter.usage(for: Fixtures.trim) == "USAGE: reel trim INPUT [OUTPUT]")
        #expect(formatter.usage(for: Fixtures.analyze) == "USAGE: reel analyze [--shard K/N] INPUTS...")
    }

    @Test("help for a name falls back to the overview")
    func helpForName() {
        #expect(formatter.help(forCommandNamed: "trim") == formatter.help(for: Fixtures.trim))
        #expect(formatter.help(forCommandNamed: nil) == formatter.overview())
        #expect(formatter.help(forCommandNamed: "nope") == formatter.overview())
    }

    @Test("long help wraps at 80 columns under its column, long option names get own line")
    func wrapping() {
        let command = CommandSpec(
            name: "wide",
            abstract: "Test wrapping.",
            discussion: "  - an indented list item whose text is long enough that it must wrap onto a second line",
            options: [
                .value(
                    "a-very-long-option-name", valueName: "SOMETHING",
                    help: "Help for the long option."),
                .value(
                    "mode", short: "m", valueName: "MODE",
                    help: "A long help text that goes on and on so that it needs to wrap onto another line.",
                    allowedValues: ["fast", "slow"]),
            ])
        let text = HelpFormatter(tool: ToolSpec(name: "t", abstract: "", version: "0", commands: [command]))
            .help(for: command)
        #expect(text == """
            OVERVIEW: Test wrapping.

              - an indented list item whose text is long enough that it must wrap onto a
                second line

            USAGE: t wide [--a-very-long-option-name SOMETHING] [--mode MODE]

            OPTIONS:
                  --a-very-long-option-name SOMETHING
                               Help for the long option.
              -m, --mode MODE  A long help text that goes on and on so that it needs to wrap
                               onto another line. (one of: fast, slow)
              -h, --help       Show help for this command.
            """)
        for line in text.split(separator: "\n") {
            #expect(line.count <= 80)
            #expect(!line.hasSuffix(" "))
        }
    }

    @Test("output is deterministic and every line fits in 80 columns")
    func deterministic() {
        for command in Fixtures.tool.commands {
            let text = formatter.help(for: command)
            #expect(text == HelpFormatter(tool: Fixtures.tool).help(for: command))
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })
        }
    }
}
