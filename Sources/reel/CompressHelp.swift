import ReelArguments
import ReelKit

/// The options, prose and examples of `reel compress`.
enum CompressHelp {
    /// The long explanation shown by `reel compress --help`.
    static let discussion = """
        Settings come from a preset (default: medium) and are then overridden by the options \
        below. Bit rates take 2M, 800k or 2000000; times take seconds (1.5) or HH:MM:SS.mmm.

        Output: IN-compressed.mp4 (or .mov with --format mov) next to each input, or in \
        --output-dir; -o names the output of a single input. An existing output is never \
        replaced without --overwrite, and an output equal to its input is refused.

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
        "reel compress match.mp4 --ranges 1.5-4,10-14.2 --preset social",
        "reel compress match.mp4 --ranges 60-90 --copy",
        "reel compress ~/clips/ --output-dir out/ --jobs 2",
        "reel compress ~/clips/ --output-dir out/ --shard 3/8 --json",
    ]

    /// Every option of `reel compress`, in help order.
    static func options(presetNames: [String]) -> [OptionSpec] {
        outputOptions(presetNames: presetNames) + videoOptions + audioOptions + runOptions
    }

    /// Where the output goes and which preset is the starting point.
    private static func outputOptions(presetNames: [String]) -> [OptionSpec] {
        [
            .value("output", short: "o", valueName: "FILE",
                   help: "Output file, for a single input (.mp4 or .mov)."),
            .value("output-dir", valueName: "DIR",
                   help: "Directory for outputs named IN-compressed.EXT (created if missing)."),
            .flag("overwrite", help: "Replace existing outputs (batch: recompress them)."),
            .value("preset", short: "p", valueName: "NAME",
                   help: "Starting settings; see 'reel presets'. Default: medium.",
                   allowedValues: presetNames),
            .value("preset-file", valueName: "FILE",
                   help: "Starting settings from a preset JSON file."),
            .value("format", valueName: "FORMAT", help: "Output container.",
                   allowedValues: OutputFileType.allCases.map(\.rawValue)),
        ]
    }

    /// Picture settings.
    private static let videoOptions: [OptionSpec] = [
        .value("codec", valueName: "CODEC", help: "Video codec (no fallback when given).",
               allowedValues: VideoCodec.allCases.map(\.rawValue)),
        .value("speed", valueName: "SPEED",
               help: "x264/x265 speed preset: slower is smaller at the same quality.",
               allowedValues: EncoderSpeed.allCases.map(\.rawValue)),
        .value("hdr", valueName: "MODE",
               help: "HDR (PQ/HLG) sources: auto keeps HDR in HEVC and tone-maps H.264 to SDR BT.709; "
                   + "keep (H.264 becomes 10-bit High 10, which plays in fewer places); tonemap.",
               allowedValues: HDRHandling.allCases.map(\.rawValue)),
        .value("rate-control", valueName: "MODE",
               help: "capped: quality with the bit rate as a cap; average: the bit rate on "
                   + "average; quality: constant quality, no bit rate.",
               allowedValues: RateControl.allCases.map(\.rawValue)),
        .value("bitrate", short: "b", valueName: "RATE",
               help: "Video bit rate (cap or average), e.g. 2M or 800k."),
        .value("quality", valueName: "Q",
               help: "Quality from 0 (smallest) to 1 (best), e.g. 0.7."),
        .value("target-quality", valueName: "METRIC:VALUE",
               help: "Reach this quality shot by shot at the fewest bytes: ssim:0.98 or psnr:40 (samples each shot)."),
        .value("target-size", valueName: "SIZE",
               help: "Never larger than this: 25M or 25MB (10^6 bytes), 24MiB (2^20), or 40% of the source; two passes."),
        .flag("adaptive-bitrate",
              help: "Never exceed the source's bits per pixel after scaling."),
        .value("max-dimension", valueName: "PIXELS",
               help: "Longest side of the picture, e.g. 1280, or 'original' to keep it."),
        .value("max-size", valueName: "PIXELS",
               help: "Old name of --max-dimension (pixels, not a file size); warns below 128."),
        .value("fps", valueName: "FPS", help: "Frame rate limit, e.g. 24 or 30000/1001."),
        .value("keyint", valueName: "FRAMES", help: "Maximum frames between keyframes."),
        .flag("rotate-pixels",
              help: "Rotate the pixels upright instead of keeping a rotation tag."),
        .value("denoise", valueName: "LEVEL", help: "Denoise before encoding.",
               allowedValues: NoiseReduction.allCases.map(\.rawValue)),
        .flag("auto-levels", help: "Stretch each picture's levels to the full range (smoothed over a second, colours kept)."),
        .flag("no-content-aware",
              help: "Do not adapt keyframes and bit rate to measured motion and detail."),
        .value("reducer", valueName: "KIND",
               help: "How frames are dropped to reach --fps.",
               allowedValues: ReducerChoice.names),
        .value("seed", valueName: "N", help: "Seed for --reducer random (reproducible)."),
        .value("start", valueName: "TIME", help: "Keep from this time, e.g. 1.5 or 00:01:02."),
        .value("end", valueName: "TIME", help: "Keep up to this time, e.g. 00:00:12.250."),
        .flag("copy", help: "Lossless: copy the packets of whole keyframe groups, no re-encoding."),
        .value("crossfade", valueName: "SECONDS", help: "Dissolve and crossfade sound at each join, e.g. 0.5."),
        .value("ranges", valueName: "LIST",
               help: "Keep these ranges, in this order, joined: 1.5-4,10-14.2 or 00:01:00-00:01:30."),
    ]

    /// Sound settings.
    private static let audioOptions: [OptionSpec] = [
        .value("audio-codec", valueName: "CODEC", help: "Audio codec.",
               allowedValues: AudioCodecType.allCases.map(\.rawValue)),
        .value("audio-bitrate", valueName: "RATE", help: "Audio bit rate, e.g. 96k."),
        .value("audio-rate", valueName: "HZ", help: "Audio sample rate, e.g. 44100."),
        .value("audio-channels", valueName: "N", help: "Audio channels.",
               allowedValues: ["1", "2"]),
        .flag("no-audio", help: "Leave the audio out."),
        .value("audio-track", valueName: "N|all",
               help: "Keep audio track N (counted from 1, as 'reel probe' lists them) or all of them; default: the main one."),
        .flag("no-subtitles", help: "Leave text subtitles out (they are kept as MP4 text subtitles by default)."),
        .flag("strip-metadata", help: "Leave out the source's tags (creation time, title, location, track languages)."),
    ]

    /// Batch, progress and result options.
    private static let runOptions: [OptionSpec] = [
        .value("jobs", short: "j", valueName: "N",
               help: "Files compressed at once in a batch (default 1)."),
        .value("shard", valueName: "K/N",
               help: "Only the K-th of N slices of the sorted inputs, e.g. 2/8."),
        .flag("dry-run", help: "Show what would be compressed or skipped; write nothing."),
        .flag("json", help: "Print one JSON object with results and analytics."),
        .value("report", valueName: "FILE",
               help: "Also write an HTML page of the result: before and after, ranges kept, bit rate over time (one input)."),
        .flag("quiet", short: "q", help: "No progress and no summary; errors are still shown."),
    ]
}

/// The `--rate-control` choices.
enum RateControl: String, CaseIterable {
    /// Constant quality with the bit rate as a cap.
    case capped
    /// The bit rate on average.
    case average
    /// Constant quality, no bit rate.
    case quality
}
