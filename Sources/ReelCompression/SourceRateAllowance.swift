/// How far an output's bit rate cap may rise above what the source itself spends, for the
/// "never bigger than needed" clamp (`CompressionPlanner.rateControl`). The source's bit rate
/// says what its picture is worth only in its own codec at a sensible encoder speed: a 4K HEVC
/// source at 1.6 Mb/s holds a picture x264 needs about twice that for, and x264's fastest
/// presets need several times more bits than its default for the same picture. Capping an
/// H.264 `ultrafast` encode at the HEVC source's scaled rate starved it into grey blocks.
enum SourceRateAllowance {
    /// The factor the source's (pixel-rate scaled) bit rate is multiplied by before it caps an
    /// encode with `output` at `speed`: never below 1, so a source in a less efficient codec
    /// (MPEG-2, MPEG-4 Part 2) is clamped as before.
    static func factor(sourceCodec: String, output: VideoCodec, speed: EncoderSpeed) -> Double {
        let codecs = max(1, bitsRelativeToH264(output) / bitsRelativeToH264(sourceCodec: sourceCodec))
        return codecs * speedFactor(speed)
    }

    /// Bits a source codec spends for H.264's picture quality, as a share of H.264's: the usual
    /// figures for HEVC, VP9 and AV1 against x264 at high definition. Anything else counts as 1.
    static func bitsRelativeToH264(sourceCodec name: String) -> Double {
        switch name {
        case "hevc": return 0.6
        case "vp9": return 0.65
        case "av1": return 0.5
        default: return 1
        }
    }

    /// The same share for the codecs Reel encodes.
    static func bitsRelativeToH264(_ codec: VideoCodec) -> Double {
        switch codec {
        case .h264: return 1
        case .hevc: return 0.6
        case .vp9: return 0.65
        case .av1: return 0.5
        }
    }

    /// How many more bits a fast preset may spend than `medium`. Measured with x264 at equal
    /// SSIM on 720p Big Buck Bunny, Megamind and vtest (`Benchmarks/codecs/preset-sweep.sh`,
    /// the SSIM of `medium` at CRF 23-29): ultrafast 2.9-5.6x, superfast 1.5-1.9x, veryfast
    /// 1.14-1.32x, faster 1.08-1.22x, fast 1.01-1.09x. Ultrafast is allowed 3x, not 5x: at 3x
    /// its picture is watchable (SSIM 0.975 on the 4K HEVC clip scaled to 720p) and its file
    /// stays smaller than the source.
    static func speedFactor(_ speed: EncoderSpeed) -> Double {
        switch speed {
        case .ultrafast: return 3
        case .superfast: return 1.6
        case .veryfast: return 1.2
        case .faster: return 1.15
        case .fast: return 1.05
        case .medium, .slow, .slower, .veryslow: return 1
        }
    }
}
