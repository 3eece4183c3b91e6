import ReelArguments
import ReelKit

/// The sound, subtitle and metadata options every encoding command shares.
struct AudioOptions: Sendable {
    /// The keys.
    enum Keys {
        static let codec = OptionKey<AudioCodecType>("audio-codec", valueName: "CODEC", help: "Audio codec.")
        static let bitrate = OptionKey<Int>(
            "audio-bitrate", valueName: "RATE", help: "Audio bit rate, e.g. 96k.", parse: ValueParsers.bitrate)
        static let rate = OptionKey<Int>(
            "audio-rate", valueName: "HZ", help: "Audio sample rate, e.g. 44100.", parse: ValueParsers.positiveInteger)
        static let channels = OptionKey<Int>(
            "audio-channels", valueName: "N", help: "Audio channels.", allowedValues: ["1", "2"],
            parse: ValueParsers.positiveInteger)
        static let noAudio = FlagKey("no-audio", help: "Leave the audio out.")
        static let track = OptionKey<AudioTrackSelection>(
            "audio-track", valueName: "N|all",
            help: "Keep audio track N (counted from 1, as 'reel probe' lists them) or all of them; default: the main one.",
            parse: AudioOptions.parseTrack)
        static let loudness = OptionKey<Double?>(
            "loudness", valueName: "LUFS|off",
            help: "Bring the sound to this integrated loudness, peaks at most -1 dBTP, e.g. -14 (highlights: -14 by default); "
                + "off keeps the source's.",
            parse: AudioOptions.parseLoudness)
        static let noSubtitles = FlagKey(
            "no-subtitles", help: "Leave text subtitles out (they are kept as MP4 text subtitles by default).")
        static let stripMetadata = FlagKey(
            "strip-metadata", help: "Leave out the source's tags (creation time, title, location, track languages).")
    }

    /// The declarations, in help order.
    static let specs: [OptionSpec] = [
        Keys.codec.spec, Keys.bitrate.spec, Keys.rate.spec, Keys.channels.spec, Keys.noAudio.spec, Keys.track.spec,
        Keys.loudness.spec, Keys.noSubtitles.spec, Keys.stripMetadata.spec,
    ]

    let codec: AudioCodecType?
    let bitrate: Int?
    let rate: Int?
    let channels: Int?
    let noAudio: Bool
    let track: AudioTrackSelection?
    /// `--loudness`: a target in LUFS, or `nil` inside for `off`.
    let loudness: Double??
    let noSubtitles: Bool
    let stripMetadata: Bool
    /// The sound options given, as `(--option, text)` in help order, for the `--no-audio` clash.
    let soundOptionsGiven: [(option: String, text: String)]

    /// Reads every option of the group.
    init(_ arguments: ParsedArguments) throws(ArgumentError) {
        codec = try arguments.value(Keys.codec)
        bitrate = try arguments.value(Keys.bitrate)
        rate = try arguments.value(Keys.rate)
        channels = try arguments.value(Keys.channels)
        noAudio = try arguments.isSet(Keys.noAudio)
        track = try arguments.value(Keys.track)
        loudness = try arguments.value(Keys.loudness)
        noSubtitles = try arguments.isSet(Keys.noSubtitles)
        stripMetadata = try arguments.isSet(Keys.stripMetadata)
        let texts = [
            (Keys.codec.displayName, try arguments.text(Keys.codec)),
            (Keys.bitrate.displayName, try arguments.text(Keys.bitrate)),
            (Keys.rate.displayName, try arguments.text(Keys.rate)),
            (Keys.channels.displayName, try arguments.text(Keys.channels)),
            (Keys.track.displayName, try arguments.text(Keys.track)),
            (Keys.loudness.displayName, try arguments.text(Keys.loudness)),
        ]
        soundOptionsGiven = texts.compactMap { option, text in text.map { (option, $0) } }
    }

    /// Sets metadata, subtitles and the sound, or leaves the sound out; a sound setting with
    /// `--no-audio` is an error.
    func apply(to config: inout CompressionConfig) throws(ArgumentError) {
        if stripMetadata { config.keepsMetadata = false }
        if noSubtitles { config.keepsSubtitles = false }
        if noAudio {
            if let given = soundOptionsGiven.first {
                throw .invalidValue(option: given.option, value: given.text,
                                    reason: "--no-audio leaves the audio out; drop one of the two")
            }
            config.audioBitrate = 0
            return
        }
        if let codec { config.audioCodec = codec }
        if let bitrate { config.audioBitrate = bitrate }
        if let rate { config.audioSampleRate = rate }
        if let channels { config.audioChannels = channels }
        if let track { config.audioTracks = track }
        if let loudness { config.loudness = loudness.map { LoudnessTarget(integrated: $0) } }
    }

    /// Whether `--loudness off` was given (a highlight reel then keeps the source's loudness).
    var keepsLoudness: Bool {
        if case .some(.none) = loudness { return true }
        return false
    }

    /// Parses `--loudness`: integrated loudness in LUFS (-40 to -5), or `off`.
    static func parseLoudness(_ text: String, option: String) throws(ArgumentError) -> Double? {
        if text.lowercased() == "off" { return nil }
        guard let value = Double(text), (-40 ... -5).contains(value) else {
            throw .invalidValue(option: option, value: text,
                                reason: "give the integrated loudness in LUFS from -40 to -5, such as -14 (-16 for podcasts), or off")
        }
        return value
    }

    /// Parses `--audio-track`: a track number counted from 1, or `all`.
    static func parseTrack(_ text: String, option: String) throws(ArgumentError) -> AudioTrackSelection {
        if text.lowercased() == "all" { return .all }
        guard let number = Int(text), number >= 1 else {
            throw .invalidValue(option: option, value: text,
                                reason: "give a track number counted from 1 (see 'reel probe') or 'all'")
        }
        return .number(number)
    }
}
