import Foundation
import ReelSupport

/// A named set of compression settings, read from a preset JSON file (see `Presets/`).
public struct Preset: Sendable, Equatable {
    /// The short name used on the command line, e.g. `messaging`.
    public var name: String
    /// One line saying what the preset is for.
    public var summary: String
    /// Why the preset's rate control was chosen.
    public var rateControlReason: String?
    /// The settings the preset stands for.
    public var config: CompressionConfig

    /// The presets built into ReelKit (compiled from `Presets/*.json`), sorted by name.
    public static let builtIn: [Preset] = EmbeddedPresetFiles.all.compactMap { file in
        try? Preset(json: Data(file.json.utf8), source: file.fileName)
    }

    /// The built-in preset with this name, if any.
    public static func named(_ name: String) -> Preset? {
        builtIn.first { $0.name == name.lowercased() }
    }

    /// Loads a user's preset file in the same format as the built-in ones.
    public static func load(from url: URL) throws(ReelError) -> Preset {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .invalidPreset("\(url.path): cannot read: \(error.localizedDescription)")
        }
        return try Preset(json: data, source: url.path)
    }

    /// Parses preset JSON; `source` names the file in error messages.
    public init(json: Data, source: String) throws(ReelError) {
        if let unknown = PresetFile.unknownKey(in: json) {
            throw .invalidPreset("\(source): unknown key '\(unknown.path)' (known here: \(unknown.known.joined(separator: ", ")))")
        }
        let file: PresetFile
        do {
            file = try JSONDecoder().decode(PresetFile.self, from: json)
        } catch {
            throw .invalidPreset("\(source): \(Self.describe(error))")
        }
        name = file.name
        summary = file.summary ?? ""
        rateControlReason = file.rateControlReason
        config = file.makeConfig()
        do {
            try config.validate()
        } catch {
            throw .invalidPreset("\(source): \(error.description)")
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "bad value at '\(context.codingPath.map { $0.stringValue }.joined(separator: "."))': \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            let allowed = PresetFile.allowedValues[path].map { " (allowed: \($0.joined(separator: ", ")))" } ?? ""
            return "bad value at '\(path)'\(allowed)"
        case DecodingError.dataCorrupted(let context):
            return "not valid JSON: \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}

/// The JSON shape of a preset file; absent keys keep `CompressionConfig`'s defaults.
struct PresetFile: Codable {
    struct Video: Codable {
        var codec: VideoCodec?
        var fallbackCodec: VideoCodec?
        var maxLongerDimension: Int?
        var fps: Float?
        var bitrateMode: BitrateMode?
        var bitrate: Int?
        var quality: Float?
        var maxKeyFrameInterval: Int?
        var useAdaptiveBitrate: Bool?
        var speed: EncoderSpeed?
        /// 10-bit pictures whatever the source (`CompressionConfig.tenBit`).
        var tenBit: Bool?
    }

    struct Audio: Codable {
        var codec: AudioCodecType?
        var bitrate: Int?
        var sampleRate: Int?
        var channels: Int?
        /// `{"integrated": -14, "truePeak": -1}`: normalise the sound (`CompressionConfig.loudness`).
        var loudness: LoudnessTarget?
    }

    var name: String
    var quality: String?
    var summary: String?
    var rateControlReason: String?
    var video: Video?
    var audio: Audio?
    var noiseReduction: NoiseReduction?
    var contentAwareOptimization: Bool?
    var fileType: OutputFileType?

    /// The values each enumerated key accepts, for error messages.
    static let allowedValues: [String: [String]] = [
        "video.codec": VideoCodec.allCases.map(\.rawValue),
        "video.fallbackCodec": VideoCodec.allCases.map(\.rawValue),
        "video.bitrateMode": BitrateMode.allCases.map(\.rawValue),
        "video.speed": EncoderSpeed.allCases.map(\.rawValue),
        "audio.codec": AudioCodecType.allCases.map(\.rawValue),
        "noiseReduction": NoiseReduction.allCases.map(\.rawValue),
        "fileType": OutputFileType.allCases.map(\.rawValue),
    ]

    /// The first key of `json` that no field reads (a typo such as `bitrat` would otherwise
    /// load silently with the default), with the keys known at that level.
    static func unknownKey(in json: Data) -> (path: String, known: [String])? {
        guard let top = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else { return nil }
        func keys(of value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label).sorted() }
        let levels: [(prefix: String, object: [String: Any]?, known: [String])] = [
            ("", top, keys(of: PresetFile(name: ""))),
            ("video.", top["video"] as? [String: Any], keys(of: Video())),
            ("audio.", top["audio"] as? [String: Any], keys(of: Audio())),
        ]
        for level in levels {
            guard let object = level.object else { continue }
            if let unknown = object.keys.sorted().first(where: { !level.known.contains($0) }) {
                return (level.prefix + unknown, level.known)
            }
        }
        return nil
    }

    func makeConfig() -> CompressionConfig {
        var config = CompressionConfig()
        if let video {
            config.videoCodec = video.codec ?? config.videoCodec
            config.fallbackVideoCodec = video.fallbackCodec
            config.maxLongerDimension = video.maxLongerDimension
            config.fps = video.fps ?? config.fps
            config.bitrateMode = video.bitrateMode ?? config.bitrateMode
            config.useExplicitBitrate = video.bitrate != nil
            config.videoBitrate = video.bitrate ?? config.videoBitrate
            config.videoQuality = video.quality ?? config.videoQuality
            config.maxKeyFrameInterval = video.maxKeyFrameInterval ?? config.maxKeyFrameInterval
            config.useAdaptiveBitrate = video.useAdaptiveBitrate ?? config.useAdaptiveBitrate
            config.encoderSpeed = video.speed ?? config.encoderSpeed
            config.tenBit = video.tenBit ?? config.tenBit
        }
        if let audio {
            config.audioCodec = audio.codec ?? config.audioCodec
            config.audioBitrate = audio.bitrate ?? config.audioBitrate
            config.audioSampleRate = audio.sampleRate ?? config.audioSampleRate
            config.audioChannels = audio.channels
            config.loudness = audio.loudness
        }
        config.preprocessing.noiseReduction = noiseReduction ?? .none
        config.contentAwareOptimization = contentAwareOptimization ?? config.contentAwareOptimization
        config.fileType = fileType ?? config.fileType
        return config
    }
}
