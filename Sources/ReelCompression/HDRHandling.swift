import Foundation
import ReelMedia

/// What happens to an HDR (PQ or HLG) source's picture.
public enum HDRHandling: String, Sendable, Codable, CaseIterable {
    /// HEVC, AV1 and VP9 keep the HDR (10-bit, tags and metadata); H.264 tone-maps to SDR.
    case automatic = "auto"
    /// Keep the HDR signal: HEVC Main 10, or H.264 High 10 with the HDR tags (plays in fewer
    /// places: many browsers and phones decode only 8-bit H.264).
    case keep
    /// Tone-map to SDR BT.709, 8-bit, whatever the codec.
    case toneMap = "tonemap"
}

/// What was done with an HDR source's picture, in the analytics.
public struct HDRConversion: Sendable, Equatable, Codable {
    /// The source's transfer: `smpte2084` (PQ) or `arib-std-b67` (HLG).
    public var sourceTransfer: String
    /// Whether the picture was tone-mapped to SDR BT.709 (else the HDR was kept).
    public var toneMapped: Bool
    /// The peak brightness the tone map took as the source's white, in cd/m².
    public var peakNits: Double?
    /// A sentence for people, e.g. "tone-mapped PQ 1000 nits to SDR BT.709".
    public var summary: String
}

/// The tone map from PQ or HLG to SDR BT.709: libavfilter's `zscale` to linear light (100 cd/m²
/// as 1.0), `tonemap` with the hable operator (a filmic curve that rolls off highlights instead
/// of clipping them) and the peak from the content light level or the mastering display, then
/// `zscale` to BT.709 limited range.
enum HDRToneMap {
    /// Peak brightness assumed when the source declares none: the usual HDR10 grading peak.
    static let defaultPeakNits = 1000.0

    /// The peak brightness of `picture` in cd/m²: MaxCLL, else the mastering display's peak.
    static func peakNits(of picture: VideoStreamInfo) -> Double {
        if let cll = picture.hdr?.maxContentLightLevel, cll > 0 { return Double(cll) }
        if let mastering = picture.hdr?.maxLuminance, mastering > 0 { return mastering }
        return defaultPeakNits
    }

    /// The filter chain (planar float in between; the caller converts to the encoder's format).
    static func filter(for picture: VideoStreamInfo) -> String {
        let transfer = picture.color.transfer == "arib-std-b67" ? "arib-std-b67" : "smpte2084"
        let range = picture.color.range == "pc" ? "full" : "limited"
        let peak = peakNits(of: picture) / 100
        return "zscale=tin=\(transfer):min=2020_ncl:pin=2020:rin=\(range):t=linear:npl=100,format=gbrpf32le,"
            + "zscale=p=709,tonemap=tonemap=hable:desat=0:peak=\(String(format: "%.2f", peak)),"
            + "zscale=t=709:m=709:r=limited"
    }

    /// Whether `handling` tone-maps `picture` when encoding to `codec`.
    static func toneMaps(_ picture: VideoStreamInfo, handling: HDRHandling, codec: VideoCodec) -> Bool {
        guard picture.color.isHDR else { return false }
        switch handling {
        case .toneMap: return true
        case .keep: return false
        case .automatic: return !codec.keepsTenBitByDefault
        }
    }

    /// The analytics entry for an HDR `picture`, tone-mapped or kept.
    static func conversion(for picture: VideoStreamInfo, toneMapped: Bool) -> HDRConversion? {
        guard picture.color.isHDR, let transfer = picture.color.transfer else { return nil }
        let name = transfer == "smpte2084" ? "PQ" : "HLG"
        let peak = peakNits(of: picture)
        let summary = toneMapped
            ? String(format: "tone-mapped %@ %.0f nits to SDR BT.709", name, peak)
            : "kept \(name) HDR (10-bit BT.2020)"
        return HDRConversion(sourceTransfer: transfer, toneMapped: toneMapped, peakNits: toneMapped ? peak : nil, summary: summary)
    }
}
