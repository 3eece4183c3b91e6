import Foundation
import ReelMedia
import ReelSupport
import Synchronization

/// AVFoundation's `AVURLAsset`, as far as taking frames from it goes: a video file by URL.
/// With `AVAssetImageGenerator` it lets code that takes a frame as AVFoundation does (the
/// MediaIntelligence articles' thumbnails) compile on Linux with `import AVFoundation` changed to
/// `import ReelKit` and `CGImage` to `FrameImage`. New code should call
/// `Thumbnailer.image(of:at:)`.
public final class AVURLAsset: Sendable {
    /// The file.
    public let url: URL

    /// An asset of the file at `url` (opened only when a frame is asked for).
    public init(url: URL) {
        self.url = url
    }
}

/// AVFoundation's `AVAssetImageGenerator` on `Thumbnailer.image(of:at:upright:)`: the frame on
/// screen at a time as a `FrameImage` and its exact time. Every frame is decoded exactly: the
/// tolerances are kept for code that sets them, and any tolerance accepts the exact frame.
/// Frames come at their stored size: there is no `maximumSize`.
public final class AVAssetImageGenerator: Sendable {
    /// What an app sets before asking for frames.
    private struct Settings {
        var appliesPreferredTrackTransform = false
        var requestedTimeToleranceBefore: CMTime = .zero
        var requestedTimeToleranceAfter: CMTime = .zero
    }

    /// The asset the frames come from.
    public let asset: AVURLAsset
    private let settings = Mutex(Settings())
    private let thumbnailer = Thumbnailer()

    /// A generator of `asset`'s frames.
    public init(asset: AVURLAsset) {
        self.asset = asset
    }

    /// Whether the display rotation is applied (upright pictures); AVFoundation's default is
    /// false.
    public var appliesPreferredTrackTransform: Bool {
        get { settings.withLock { $0.appliesPreferredTrackTransform } }
        set { settings.withLock { $0.appliesPreferredTrackTransform = newValue } }
    }

    /// How much earlier than the requested time the frame may be; frames here are exact.
    public var requestedTimeToleranceBefore: CMTime {
        get { settings.withLock { $0.requestedTimeToleranceBefore } }
        set { settings.withLock { $0.requestedTimeToleranceBefore = newValue } }
    }

    /// How much later than the requested time the frame may be; frames here are exact.
    public var requestedTimeToleranceAfter: CMTime {
        get { settings.withLock { $0.requestedTimeToleranceAfter } }
        set { settings.withLock { $0.requestedTimeToleranceAfter = newValue } }
    }

    /// The frame on screen at `time` (the last one shown at or before it) and when it is shown.
    public func image(at time: CMTime) async throws(ReelError) -> (image: FrameImage, actualTime: CMTime) {
        let image = try await thumbnailer.image(of: asset.url, at: time, upright: appliesPreferredTrackTransform)
        return (image, image.time)
    }
}
