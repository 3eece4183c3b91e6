import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia
@testable import ReelKit
import ReelSupport

/// Pictures made smaller keep square pixels on the source's shown aspect; anamorphic sources
/// keep their pixel shape unless they are made smaller.
@Suite(.timeLimit(.minutes(3))) struct PixelAspectTests {
    /// Width, height and sample aspect ratio of the first video stream, from ffprobe.
    private static func picture(_ url: URL) throws -> (width: Int, height: Int, sar: String) {
        let json = try Fixtures.ffprobe(url, ["-select_streams", "v:0", "-show_entries", "stream=width,height,sample_aspect_ratio"])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        return (stream["width"] as? Int ?? 0, stream["height"] as? Int ?? 0, stream["sample_aspect_ratio"] as? String ?? "")
    }

    /// 320x180 at 190 is 190x106.9: both sides even and the pixels square (scale alone would
    /// write 190x106 with pixels of 1272:1273 to keep 16:9 exactly).
    @Test func aSmallerPictureHasSquarePixels() async throws {
        let (result, _, _) = try await Harness.compress("story.mp4") {
            $0.maxLongerDimension = 190
            $0.trimEndTime = MediaTime(value: 2, timescale: 1)
        }
        let output = try Self.picture(result.url)
        #expect(output.width == 190 && output.height == 106)
        #expect(output.sar == "1:1", "\(output)")
    }

    @Test func anAnamorphicSourceMadeSmallerIsShownAtItsAspectWithSquarePixels() async throws {
        let source = try MediaInfo.probe(try Fixtures.clip("anamorphic.mpg"))
        let pixelAspect = try #require(source.primaryVideo?.video?.pixelAspectRatio)
        #expect(abs(pixelAspect - 32.0 / 27.0) < 1e-9)
        let (result, _, _) = try await Harness.compress("anamorphic.mpg") { $0.maxLongerDimension = 640 }
        let output = try Self.picture(result.url)
        #expect(output.width == 640 && output.height == 360 && output.sar == "1:1", "\(output)")
    }

    @Test func anAnamorphicSourceKeptAtItsSizeKeepsItsPixelShape() async throws {
        let (result, _, _) = try await Harness.compress("anamorphic.mpg")
        let output = try Self.picture(result.url)
        #expect(output.width == 720 && output.height == 480 && output.sar == "32:27", "\(output)")
    }

    /// An image has no pixel shape: a still of the 720x480 anamorphic source (shown 16:9) was
    /// 720x480, squeezed; it is square-pixelled at the shown aspect.
    @Test func aStillOfAnAnamorphicSourceIsShownAtItsAspect() async throws {
        let source = try Fixtures.clip("anamorphic.mpg")
        let directory = try Fixtures.scratchDirectory()
        let still = try await Thumbnailer().thumbnail(
            of: source, at: MediaTime(value: 1, timescale: 1), to: directory.appendingPathComponent("still.png"))
        #expect(still.width == 852 && still.height == 480, "\(still.width)x\(still.height)")
        let small = try await Thumbnailer().thumbnail(
            of: source, at: MediaTime(value: 1, timescale: 1), width: 320, to: directory.appendingPathComponent("small.jpg"))
        #expect(small.width == 320 && small.height == 180, "\(small.width)x\(small.height)")
        let picture = try Self.picture(small.url)
        #expect(picture.width == 320 && picture.height == 180)
    }
}
