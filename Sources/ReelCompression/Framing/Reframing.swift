import Foundation

/// The shape of a reframed output, width to height: 9:16 for Shorts, Reels and TikTok, 4:5 and
/// 1:1 for feeds, 16:9 for a portrait source shown landscape.
public struct AspectRatio: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Relative width.
    public let width: Int
    /// Relative height.
    public let height: Int

    /// A ratio of two positive whole numbers up to 100 each; `nil` otherwise.
    public init?(width: Int, height: Int) {
        guard (1...100).contains(width), (1...100).contains(height) else { return nil }
        self.width = width
        self.height = height
    }

    /// Reads `"9:16"` (or `"9x16"`, `"9/16"`).
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { ":x/".contains($0) })
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.init(width: width, height: height)
    }

    /// 9:16, upright full screen on phones.
    public static let vertical = AspectRatio(unchecked: 9, 16)
    /// 4:5, the tallest feed post.
    public static let portrait = AspectRatio(unchecked: 4, 5)
    /// 1:1.
    public static let square = AspectRatio(unchecked: 1, 1)
    /// 16:9.
    public static let landscape = AspectRatio(unchecked: 16, 9)

    private init(unchecked width: Int, _ height: Int) {
        self.width = width
        self.height = height
    }

    /// Width divided by height.
    public var value: Double { Double(width) / Double(height) }

    /// `"9:16"`.
    public var description: String { "\(width):\(height)" }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let ratio = AspectRatio(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an aspect ratio: \(text)"))
        }
        self = ratio
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// What fills the output around a picture shown whole, in a shot whose subjects cannot share
/// one window of the output's shape.
public enum FramingFill: String, Sendable, Codable, CaseIterable {
    /// A blurred, enlarged copy of the same picture.
    case blur
    /// Black bars.
    case black
}

/// Reframing to another shape with a virtual camera that follows the subject: faces first
/// (the one continuing on screen, all of them when they fit), else what moves, else what stands
/// out from the scenery. Per shot the window holds still while the subject stays in its middle,
/// pans smoothly when it leaves, and starts afresh at every cut. The picture is cropped, never
/// squashed, and never enlarged past the source's resolution.
public struct Reframing: Sendable, Equatable, Codable {
    /// The output's shape.
    public var aspect: AspectRatio
    /// When set, a shot whose faces cannot share one window shows the whole picture, filled
    /// around with this; when `nil`, the window follows the main face.
    public var fill: FramingFill?
    /// Where the face to follow was seen (a reel of one person): at each sample the camera
    /// follows the face nearest the closest hint in time, whatever else is on screen. Empty
    /// follows the main face. A highlight reel of one person fills this from the face index.
    public var focus: [FramingFocus] = []
    /// A path worked out before for the same source and kept ranges (a chunk plan's, shared by
    /// its chunks), used as it is; `nil` works it out from the video.
    public var path: CameraPath?

    /// Reframing to `aspect`.
    public init(aspect: AspectRatio, fill: FramingFill? = nil, path: CameraPath? = nil) {
        self.aspect = aspect
        self.fill = fill
        self.path = path
    }
}

/// A face the camera should follow: where it was seen, and when.
public struct FramingFocus: Sendable, Equatable, Codable {
    /// Seconds on the file's timeline (zero is the container's start).
    public var time: Double
    /// The face, normalized to the upright picture (origin top left).
    public var box: CGRect

    /// A hint at `time`.
    public init(time: Double, box: CGRect) {
        self.time = time
        self.box = box
    }
}
