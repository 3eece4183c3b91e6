import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia

/// Rotation, odd sizes, HEVC and HDR metadata read back from real files.
@Suite(.timeLimit(.minutes(5))) struct OrientationAndColorTests {
    @Test func rotationMatrixIsCarriedByDefault() async throws {
        let source = try MediaInfo.probe(try Fixtures.clip("rotated90.mov"))
        #expect(source.primaryVideo?.video?.rotation == 90)
        let (result, output, _) = try await Harness.compress("rotated90.mov") { $0.maxLongerDimension = 320 }
        let video = try #require(output.primaryVideo?.video)
        #expect(video.width == 320 && video.height == 180)
        #expect(video.rotation == 90)
        #expect(result.analytics.compressedVisualDimensions == VideoDimensions(width: 180, height: 320))
        #expect(result.analytics.originalDimensions == VideoDimensions(width: 360, height: 640))
    }

    @Test func forcedVisualDimensionsRotateThePixels() async throws {
        let sourceURL = try Fixtures.clip("rotated90.mov")
        let (result, output, _) = try await Harness.compress("rotated90.mov") {
            $0.forceVisualEncodingDimensions = true
        }
        let video = try #require(output.primaryVideo?.video)
        #expect(video.width == 360 && video.height == 640)
        #expect(video.rotation == 0)
        // The source's picture turned 90 degrees clockwise: output block (r, c) shows source
        // block (n - 1 - c, r).
        let n = 8
        let source = try FrameProbe.firstFrame(of: sourceURL, columns: n, rows: n).blocks
        let rotated = try FrameProbe.firstFrame(of: result.url, columns: n, rows: n).blocks
        var expected = [Float](repeating: 0, count: n * n)
        for row in 0..<n { for column in 0..<n { expected[row * n + column] = source[(n - 1 - column) * n + row] } }
        let error = zip(expected, rotated).map { abs($0 - $1) }.reduce(0, +) / Float(n * n)
        let unrotatedError = zip(source, rotated).map { abs($0 - $1) }.reduce(0, +) / Float(n * n)
        #expect(error < 0.03)
        #expect(unrotatedError > error * 3)
    }

    @Test func oddDimensionsBecomeEvenWithoutUpscaling() async throws {
        let (result, output, _) = try await Harness.compress("odd_dims.mkv")
        let video = try #require(output.primaryVideo?.video)
        #expect(video.width == 320 && video.height == 240)
        #expect(result.analytics.originalDimensions == VideoDimensions(width: 321, height: 241))
        #expect(output.primaryAudio != nil)
    }

    @Test(arguments: [("hdr_pq.mp4", "smpte2084"), ("hdr_hlg.mp4", "arib-std-b67")])
    func hdrSurvivesHEVC(clip: String, transfer: String) async throws {
        let (result, output, _) = try await Harness.compress(clip) { $0.videoCodec = .hevc }
        let video = try #require(output.primaryVideo)
        #expect(video.codecName == "hevc")
        #expect(video.profile == "Main 10")
        #expect(video.video?.pixelFormat == "yuv420p10le")
        #expect(video.video?.color.transfer == transfer)
        #expect(video.video?.color.primaries == "bt2020")
        #expect(video.video?.color.matrix == "bt2020nc")
        let frameHDR = try #require(try FrameProbe.firstFrame(of: result.url).hdr)
        #expect(frameHDR.maxLuminance == 1000)
        #expect(frameHDR.minLuminance == 0.005)
        #expect(frameHDR.maxContentLightLevel == 1000)
        #expect(frameHDR.maxFrameAverageLightLevel == 400)
        let primaries = try #require(frameHDR.displayPrimaries)
        #expect(abs(primaries[1][0] - 0.265) < 1e-4)  // green x, G(13250, ...) in 0.00002 units
        // Also written as container boxes (mdcv/clli), which the source did not even have.
        let streamHDR = try #require(video.video?.hdr)
        #expect(streamHDR.hasMasteringDisplay && streamHDR.hasContentLightLevel)
        #expect(streamHDR.maxLuminance == 1000 && streamHDR.maxContentLightLevel == 1000)
    }

    /// HDR to H.264 is tone-mapped to SDR (`HDRToneMapTests`); with `.keep` the tags are
    /// carried, on a 10-bit High 10 stream.
    @Test func colorTagsAreCarriedToH264() async throws {
        let (_, output, _) = try await Harness.compress("hdr_hlg.mp4") {
            $0.videoCodec = .h264
            $0.hdr = .keep
        }
        let video = try #require(output.primaryVideo?.video)
        #expect(video.pixelFormat == "yuv420p10le")
        #expect(video.color.transfer == "arib-std-b67")
        #expect(video.color.primaries == "bt2020")
    }
}
