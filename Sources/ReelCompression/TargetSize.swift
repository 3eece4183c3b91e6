import Foundation
import ReelMedia

/// A size the output must not exceed.
public enum TargetFileSize: Sendable, Equatable, Codable {
    /// At most this many bytes.
    case bytes(Int64)
    /// At most this percentage of the source file's size (`40` is 40%).
    case percentOfSource(Double)

    /// The limit in bytes for a source of `sourceSize` bytes.
    public func bytes(forSourceOf sourceSize: Int64) -> Int64 {
        switch self {
        case .bytes(let bytes): return bytes
        case .percentOfSource(let percent): return Int64((Double(sourceSize) * percent / 100).rounded(.down))
        }
    }
}

/// How a compression to a target size went.
public struct TargetSizeReport: Sendable, Equatable, Codable {
    /// The limit, in bytes.
    public var targetBytes: Int64
    /// The output's size, in bytes (never above `targetBytes`).
    public var achievedBytes: Int64
    /// The video bit rate the budget allowed, in bits per second (of the last encode).
    public var videoBitrate: Int
    /// Encodes run: 2 for the two passes, one more for each re-encode after an overshoot;
    /// 1 when the preset's own result already fitted.
    public var encodes: Int
    /// The picture size chosen because the budget was too small for the preset's
    /// (`nil`: not lowered).
    public var loweredDimensions: VideoDimensions?
    /// The frame rate chosen because the budget was too small even at the smallest picture
    /// size (`nil`: not lowered).
    public var loweredFrameRate: Double?
    /// Each second-pass encode's video bit rate and resulting file size, in order; for a GIF or
    /// WebP, each encode's frame rate x 1000, longer side in pixels and file size.
    public var attempts: [[Int64]] = []
    /// Whether the target was larger than what the preset makes anyway, so the preset's own
    /// result was kept rather than inflated to the target.
    public var keptPresetResult: Bool
}

/// The arithmetic of a target size: what the audio and the container take, what is left for
/// the video, and the picture size and frame rate that budget can carry.
struct TargetSizeBudget {
    /// Bits per pixel below which the picture is made smaller instead of turning to mush
    /// (H.264; HEVC needs about 30% fewer).
    static let minimumBitsPerPixel = 0.05
    /// The smallest longer side the picture is lowered to before the frame rate is.
    static let minimumLongerSide = 320
    /// The lowest frame rate a tight budget may choose.
    static let minimumFrameRate = 12.0
    /// Share of the target aimed for: what the encoder overshoots is then usually inside it.
    static let aim = 0.985

    let planner: CompressionPlanner
    let targetBytes: Int64
    /// Seconds of output.
    let duration: Double

    /// The audio's size when it was measured (a chunked encode encodes it first), instead of
    /// the estimate from its bit rate.
    var measuredAudioBytes: Double?

    /// Bytes the kept audio tracks take: their bit rates over the duration, plus 2% (or what
    /// was measured).
    var audioBytes: Double {
        if let measuredAudioBytes { return measuredAudioBytes }
        var bitRate = 0
        for stream in (try? planner.keptAudioStreams()) ?? [] {
            if let settings = try? planner.audioSettings(for: stream) { bitRate += settings.bitRate }
        }
        return Double(bitRate) / 8 * duration * 1.02
    }

    /// Whether the output holds the video alone (a chunk of a chunked encode), in a container
    /// whose real size is counted (`chunkContainerBytes`), so its share goes to its pictures.
    var videoOnly = false

    /// What a video-only MP4 of `frames` pictures really spends on its container: about 1 kB
    /// and 13 bytes a picture (6.5 to 6.7 kB measured for 450 pictures with B frames).
    static func chunkContainerBytes(frames: Double) -> Double { 1_024 + frames * 13 }

    /// Bytes of the container itself: headers and the index, about 12 bytes a video frame
    /// and 8 an audio frame.
    func containerBytes(frameRate: Double) -> Double {
        if videoOnly { return Self.chunkContainerBytes(frames: duration * frameRate) }
        let audioFrames = Double((try? planner.keptAudioStreams())?.count ?? 0) * duration * 48_000 / 1024
        return 8_192 + duration * frameRate * 12 + audioFrames * 8
    }

    /// The video bit rate the target leaves, in bits per second, or `nil` when the audio and
    /// the container alone take it all.
    func videoBitrate(frameRate: Double) -> Double? {
        let left = Double(targetBytes) * Self.aim - audioBytes - containerBytes(frameRate: frameRate)
        guard duration > 0, left > 0 else { return nil }
        return left * 8 / duration
    }

    /// Why a target of `target` bytes leaves nothing for the picture, naming only what the
    /// output holds: the container, and the audio when there is any.
    func unreachableReason(target: Int64, frameRate: Double) -> String {
        let container = containerBytes(frameRate: frameRate), audio = audioBytes
        let given = "a target of \(TargetSizeJob.describe(target)) cannot be met: "
        guard audio > 0 else {
            return given + "the container alone takes \(TargetSizeJob.describe(Int64(container))) "
                + "(its headers and index for \(Int((duration * frameRate).rounded())) pictures); give a larger target"
        }
        return given + "the audio and the container alone take \(TargetSizeJob.describe(Int64(audio + container))) "
            + "(leave the audio out or lower its bit rate)"
    }

    /// The picture's longer side and frame rate that `bitrate` can carry at the bits-per-pixel
    /// floor, starting from `width`x`height` at `frameRate`: the size first (never below
    /// `minimumLongerSide`), then the frame rate (never below `minimumFrameRate`). `nil` for a
    /// value that need not change.
    static func lowered(bitrate: Double, width: Int, height: Int, frameRate: Double, hevc: Bool)
        -> (longerSide: Int?, frameRate: Double?) {
        let floor = minimumBitsPerPixel * (hevc ? 0.7 : 1)
        let needed = floor * Double(width * height) * frameRate
        guard bitrate < needed, width > 0, height > 0 else { return (nil, nil) }
        let longer = max(width, height)
        let scaled = Double(longer) * (bitrate / needed).squareRoot()
        let side = max(Int(scaled) / 2 * 2, minimumLongerSide)
        guard side < longer else { return (nil, nil) }
        guard Double(side) > scaled else { return (side, nil) }
        // The smallest size is still too big for the budget: fewer frames too.
        let ratio = Double(side) / Double(longer)
        let pixels = Double(width * height) * ratio * ratio
        let rate = max(bitrate / (floor * pixels), minimumFrameRate)
        return (side, rate < frameRate ? rate : nil)
    }
}
