/// The built-in presets, as in JMVideoCompressor; their numbers live in `Presets/*.json`.
public enum VideoQuality: String, Sendable, CaseIterable, Codable {
    /// 640 px, 20 fps, 500 kbps cap, mono AAC 64 kbps, light denoise.
    case lowQuality
    /// 1280 px, 30 fps, 2 Mbps cap, AAC 128 kbps.
    case mediumQuality
    /// 1920 px, 30 fps, 5 Mbps cap, HEVC when supported else H.264, AAC 192 kbps.
    case highQuality
    /// 1280 px, 30 fps, 3.5 Mbps cap, AAC 128 kbps.
    case socialMedia
    /// 854 px, 24 fps, 1 Mbps cap, mono AAC 64 kbps, medium denoise.
    case messaging

    /// The preset file's short name (`low`, `medium`, `high`, `social`, `messaging`).
    public var presetName: String {
        switch self {
        case .lowQuality: return "low"
        case .mediumQuality: return "medium"
        case .highQuality: return "high"
        case .socialMedia: return "social"
        case .messaging: return "messaging"
        }
    }

    /// The preset's settings.
    public var preset: Preset? { Preset.named(presetName) }

    /// The preset's configuration (the library default if its file were missing from the build).
    public var defaultConfig: CompressionConfig { preset?.config ?? .default }
}
