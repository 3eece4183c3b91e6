import ReelArguments

/// The declaration, prose and examples of `reel compress`.
enum CompressHelp {
    /// The long explanation shown by `reel compress --help`.
    static let discussion = """
        Settings come from a preset (default: medium) and are then overridden by the options \
        below. Bit rates take 2M, 800k or 2000000; times take seconds (1.5) or HH:MM:SS.mmm.

        Output: IN-compressed.mp4 (or .mov, .webm, .mkv with --format) next to each input, or in \
        --output-dir; -o names the output of a single input. An existing output is never \
        replaced without --overwrite, and an output equal to its input is refused.

        GIF and WebP (--format gif|webp, or -o NAME.gif|.webp): looping animations without \
        sound or subtitles, at 15 fps and 480 pixels on the longer side unless --fps or \
        --max-dimension say otherwise; --quality sets a GIF's colours and a WebP's quality, \
        and --target-size lowers the frame rate, then the picture, then those until it fits.

        AV1 and VP9 (--codec av1|vp9): SVT-AV1 and libvpx-vp9, with --quality, --bitrate and \
        --speed meaning what they mean for H.264; in .mp4, .webm or .mkv. A WebM (--format webm \
        or -o NAME.webm) holds AV1 or VP9 with Opus: without --codec and --audio-codec it gets \
        AV1 and Opus. Opus is always 48 kHz. Text subtitles become WebVTT in WebM, SRT in MKV.

        Dead air: --cut-silence keeps only the parts with sound, each with --silence-margin \
        of quiet around it (default 0.2s), and cuts the rest; sound is what peaks above \
        --silence-level (default 4% of the loudest peak, auto-editor's default; or a level such \
        as -40dB); gaps shorter than --min-pause (default 0.5s) stay. --cut-still cuts only the \
        pauses over a still picture (or, without sound, where the picture stands still). The \
        sound is decoded once, alone, and the parts kept are encoded joined in one pass; with \
        --start/--end or --ranges only those parts are looked in. --dry-run lists the cuts.

        Batch: several inputs, a directory, or --shard make a batch. Up to --jobs files are \
        compressed at once; an input whose output already exists and is a complete video is \
        skipped, so an interrupted batch resumes where it stopped; a failing file does not \
        stop the others. --shard K/N takes every N-th file of the sorted input list starting \
        with the K-th, so N machines given K = 1...N share a batch exactly.

        Exit status: 0 success, 1 a file failed, 2 usage error, 130 interrupted by Ctrl-C \
        (143 by SIGTERM). An interrupted compression leaves no partial output.
        """

    /// Complete example invocations.
    static let examples = [
        "reel compress holiday.mov",
        "reel compress holiday.mov --preset messaging -o holiday-small.mp4",
        "reel compress talk.mp4 --max-dimension 1280 --fps 24 --bitrate 1.5M --audio-channels 1",
        "reel compress clip.mp4 --start 1.5 --end 00:00:12.250 --codec hevc --speed slow",
        "reel compress clip.mp4 -o clip.webm --codec vp9",
        "reel compress film.mkv --preset archive",
        "reel compress match.mp4 --ranges 1.5-4,10-14.2 --preset social",
        "reel compress match.mp4 --ranges 60-90 --copy",
        "reel compress lecture.mp4 --cut-silence --silence-margin 0.1s,0.3s --dry-run",
        "reel compress ~/clips/ --output-dir out/ --jobs 2",
        "reel compress ~/clips/ --output-dir out/ --shard 3/8 --json",
    ]

    /// The command's declaration.
    static func spec(presetNames: [String]) -> CommandSpec {
        CommandSpec(
            name: "compress",
            abstract: "Compress one or more videos with a preset and optional overrides.",
            discussion: discussion,
            examples: examples,
            options: CompressOptions.specs(presetNames: presetNames, .compress),
            positionals: [
                PositionalSpec(
                    name: "INPUT",
                    help: "Video files or directories (their video files, not recursively).",
                    isVariadic: true),
            ])
    }
}
