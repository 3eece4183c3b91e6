import Foundation
import ReelSupport

/// A decoded video frame in memory, at the exact time it is shown: packed 8-bit RGB pixels, its
/// size, and JPEG or PNG bytes made by FFmpeg's `mjpeg` and `png` encoders. What a port of code
/// that handles a `CGImage` from `AVAssetImageGenerator` works with; `Thumbnailer.image(of:at:)`
/// makes one.
public struct FrameImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes, row after row from the top, red, green and blue, no padding.
    public let pixels: [UInt8]
    /// When the frame is shown: its exact presentation time on the API's timeline (zero is the
    /// file's start).
    public let time: MediaTime
    /// The video the frame was decoded from (named by errors).
    public let source: URL

    /// Bytes per pixel: 3 (red, green, blue).
    public static let bytesPerPixel = 3

    /// Bytes in one row of `pixels`.
    public var bytesPerRow: Int { width * Self.bytesPerPixel }

    /// An image from its parts (apps mocking one); `pixels` must hold `width * height * 3` bytes.
    public init(width: Int, height: Int, pixels: [UInt8], time: MediaTime, source: URL) throws(ReelError) {
        guard width > 0, height > 0, pixels.count == width * height * Self.bytesPerPixel else {
            throw .invalidConfiguration("a \(width)x\(height) RGB image has \(max(width, 0) * max(height, 0) * 3) bytes, not \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
        self.time = time
        self.source = source
    }

    /// A converted picture of `source`; its time is on the API's timeline already.
    package init(_ picture: RGBPicture, source: URL) {
        width = picture.width
        height = picture.height
        pixels = picture.pixels
        time = picture.time ?? .zero
        self.source = source
    }

    /// The red, green and blue of the pixel at column `x`, row `y` (0, 0 is the top left), or
    /// `nil` outside the image.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let offset = y * bytesPerRow + x * Self.bytesPerPixel
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    /// The image as a baseline JPEG file's bytes (FFmpeg's `mjpeg`, full range 4:2:0, quantizer
    /// 2: visually lossless), as `reel thumbnail` writes them.
    public func jpegData() throws(ReelError) -> Data { try encoded(as: "mjpeg") }

    /// The image as a PNG file's bytes (FFmpeg's `png`, 8-bit RGB, lossless).
    public func pngData() throws(ReelError) -> Data { try encoded(as: "png") }

    private func encoded(as encoderName: String) throws(ReelError) -> Data {
        let picture = RGBPicture(width: width, height: height, pixels: pixels, time: time)
        do {
            return try StillImageWriter.encoded(picture, encoderName: encoderName)
        } catch {
            throw error.reelError(source: source, output: source)
        }
    }
}

extension FrameImage {
    /// The frame of `source` on screen at `seconds` on the API's timeline (the last one shown at
    /// or before it), decoded at its stored size, upright unless `upright` is false; from video
    /// stream `stream` when given.
    package static func decode(_ source: MediaInfo, at seconds: Double, upright: Bool, stream: Int? = nil) throws(MediaFailure) -> FrameImage {
        FrameImage(try PictureReader.frame(of: source, at: seconds, maximumSide: nil, upright: upright, stream: stream), source: source.url)
    }
}
