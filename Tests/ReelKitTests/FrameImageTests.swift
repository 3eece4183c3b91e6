import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// A frame decoded into memory (`Thumbnailer.image`), and AVFoundation's names for it.
@Suite(.timeLimit(.minutes(5))) struct FrameImageTests {
    /// The mean absolute difference of two RGB images' bytes, the second read through `map`
    /// (the pixel of the second at each pixel of the first).
    static func difference(_ image: FrameImage, _ other: FrameImage, map: (Int, Int) -> (Int, Int)) -> Double {
        var total = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (ox, oy) = map(x, y)
                guard let a = image.pixel(x: x, y: y), let b = other.pixel(x: ox, y: oy) else { return .infinity }
                total += abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue))
            }
        }
        return Double(total) / Double(image.width * image.height * 3)
    }

    @Test func aRotatedVideosFrameIsUprightUnlessAskedNotToBe() async throws {
        let source = try Fixtures.clip("rotated90.mov")
        let half = MediaTime(value: 1, timescale: 2)
        let upright = try await Thumbnailer().image(of: source, at: half)
        let coded = try await Thumbnailer().image(of: source, at: half, upright: false)
        #expect(upright.width == 360 && upright.height == 640 && coded.width == 640 && coded.height == 360)
        #expect(upright.time == half && coded.time == half)
        // Upright is the coded picture turned 90 degrees clockwise: its (x, y) is the coded (y, 359 - x).
        let turned = Self.difference(upright, coded) { x, y in (y, 359 - x) }
        let unturned = Self.difference(upright, coded) { x, y in (y, x) }
        #expect(turned < 3 && unturned > 10, "turned \(turned), unturned \(unturned)")
        // The AVFoundation names: the same frames, the transform applied only when asked.
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: source))
        let (plain, actualTime) = try await generator.image(at: CMTime(seconds: 0.5, preferredTimescale: 600))
        #expect(plain == coded && actualTime == half)
        generator.appliesPreferredTrackTransform = true
        #expect(try await generator.image(at: half).image == upright)
    }

    /// A time between frames gives the frame on screen then, with that frame's own time.
    @Test func aTimeBetweenFramesGivesTheFrameOnScreen() async throws {
        let source = try Fixtures.clip("rotated90.mov")
        let image = try await Thumbnailer().image(of: source, at: MediaTime(value: 51, timescale: 100))
        #expect(image.time == MediaTime(value: 15, timescale: 30))
        await #expect(throws: ReelError.self) { try await Thumbnailer().image(of: source, at: MediaTime(value: 3, timescale: 1)) }
    }

    @Test func anImageFromPartsChecksItsBytes() throws {
        let source = URL(fileURLWithPath: "/nonexistent.mp4")
        #expect(throws: ReelError.self) { try FrameImage(width: 2, height: 2, pixels: [0, 0, 0], time: .zero, source: source) }
        let image = try FrameImage(width: 2, height: 1, pixels: [255, 0, 0, 0, 0, 255], time: .zero, source: source)
        #expect(image.pixel(x: 1, y: 0)?.blue == 255 && image.pixel(x: 2, y: 0) == nil && image.bytesPerRow == 6)
        #expect(Array(try image.pngData().prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }
}
