/// How picture quality is measured between an encode and its source (libavfilter's filters,
/// in-process): `TargetQuality.Metric`.
public enum QualityMetric: String, Sendable, Codable, CaseIterable {
    /// Structural similarity of the luma and chroma planes, 0...1 (`ssim`'s `All`); 0.98 looks
    /// like the source to most eyes.
    case ssim
    /// Peak signal-to-noise ratio in dB (`psnr`'s `psnr_avg`).
    case psnr

    /// The frame metadata entry in which the filter (named by `rawValue`) leaves its value.
    package var frameMetadataKey: String {
        switch self {
        case .ssim: return "lavfi.ssim.All"
        case .psnr: return "lavfi.psnr.psnr_avg"
        }
    }
}
