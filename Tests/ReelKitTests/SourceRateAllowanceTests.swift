import Foundation
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// The cap "never bigger than needed" scales the source's bit rate to the output. An HEVC
/// source's bits are worth more than H.264's, and x264's fastest presets need more bits than
/// its default for the same picture: capped at the HEVC source's scaled rate, an `ultrafast`
/// H.264 encode starved (4K HEVC at 1.6 Mb/s to 720p came out as grey blocks, SSIM 0.86).
@Suite struct SourceRateAllowanceTests {
    /// 3 s of a detailed zoom as 1280x720 HEVC at about 1.6 Mb/s (x265 CRF 30).
    static func hevcSource(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("zoom-hevc.mp4")
        try Fixtures.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "mandelbrot=s=1280x720:r=25:start_scale=1.5,trim=end_frame=75",
            "-c:v", "libx265", "-preset", "fast", "-x265-params", "log-level=error:crf=30", "-pix_fmt", "yuv420p", url.path])
        return url
    }

    /// SSIM of `output` against `source` scaled to the output's size, by ffmpeg.
    static func ssim(_ output: URL, against source: URL, width: Int, height: Int) throws -> Double {
        let line = try Fixtures.run("/bin/sh", ["-c",
            "ffmpeg -nostats -i '\(output.path)' -i '\(source.path)' -lavfi '[1:v]scale=\(width):\(height):flags=bicubic[r];"
                + "[0:v][r]ssim' -f null - 2>&1 | grep -o 'All:[0-9.]*'"])
        return Double(line.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(4)) ?? 0
    }

    @Test func anUltrafastEncodeOfAnHEVCSourceIsNotStarved() async throws {
        let directory = try Fixtures.scratchDirectory()
        let source = try Self.hevcSource(in: directory)
        let sourceRate = try #require(try MediaInfo.probe(source).primaryVideo?.bitRate)
        var config = Harness.fastConfig(in: directory)
        config.maxLongerDimension = 640
        config.outputURL = directory.appendingPathComponent("small.mp4")
        let result = try await VideoCompressor().compressVideo(source, config: config)
        let cap = try #require(result.analytics.encoding?.maxBitrate)
        // Before: 0.8 x the source's rate scaled by pixel rate^0.75, 466 kb/s; SSIM 0.935.
        #expect(cap > 1_000_000, "cap \(cap) b/s")
        #expect(Double(cap) <= Double(sourceRate), "the cap never rises above the source's own \(sourceRate) b/s")
        let quality = try Self.ssim(result.url, against: source, width: 640, height: 360)
        #expect(quality > 0.96, "SSIM \(quality)")

        // At the default speed the cap is lower: medium needs fewer bits for the same picture.
        config.encoderSpeed = .medium
        config.outputURL = directory.appendingPathComponent("small-medium.mp4")
        let medium = try await VideoCompressor().compressVideo(source, config: config)
        #expect(try #require(medium.analytics.encoding?.maxBitrate) < cap)
    }
}
