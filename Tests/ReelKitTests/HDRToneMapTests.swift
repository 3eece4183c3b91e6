import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia

/// HDR sources to H.264: tone-mapped to SDR BT.709 by default, kept as High 10 on request;
/// HEVC keeps the HDR (see `OrientationAndColorTests.hdrSurvivesHEVC`).
@Suite(.timeLimit(.minutes(5))) struct HDRToneMapTests {
    /// The mean 8-bit luma of a 20x20 square at the middle of each third of the first picture,
    /// left to right, read by the ffmpeg CLI's signalstats.
    static func patchLuma(_ url: URL) throws -> [Double] {
        try ["iw/6", "iw/2", "5*iw/6"].map { x in
            let json = try Fixtures.run("/usr/bin/ffprobe", [
                "-v", "error", "-f", "lavfi", "-i", "movie=\(url.path),crop=20:20:\(x)-10:ih/2-10,signalstats",
                "-read_intervals", "%+#1", "-show_entries", "frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0",
            ])
            return try #require(json.split(separator: "\n").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) })
        }
    }

    /// PQ patches of about 5, 100 and 1000 cd/m² land at dark, mid-bright and peak SDR values;
    /// a plain tag change would leave them at 75, 127 and 181 (washed out, no white).
    @Test func pqToH264IsToneMappedToSDR() async throws {
        let (result, output, _) = try await Harness.compress("hdr_patches_pq.mp4") { $0.videoCodec = .h264 }
        let video = try #require(output.primaryVideo)
        #expect(video.profile?.contains("10") == false && video.video?.pixelFormat == "yuv420p")
        #expect(video.video?.color.transfer == "bt709" && video.video?.color.primaries == "bt709" && video.video?.color.matrix == "bt709")
        let luma = try Self.patchLuma(result.url)
        #expect(luma[0] < 70, "\(luma)")
        #expect(luma[1] > 140 && luma[1] < 175, "\(luma)")
        #expect(luma[2] > 225, "\(luma)")
        let hdr = try #require(result.analytics.encoding?.hdr)
        #expect(hdr.toneMapped && hdr.sourceTransfer == "smpte2084" && hdr.peakNits == 1000)
        #expect(hdr.summary == "tone-mapped PQ 1000 nits to SDR BT.709")
    }

    /// HLG takes the same path: SDR BT.709, 8-bit, the patches in order and within range.
    @Test func hlgToH264IsToneMappedToSDR() async throws {
        let (result, output, _) = try await Harness.compress("hdr_patches_hlg.mp4") { $0.videoCodec = .h264 }
        let video = try #require(output.primaryVideo?.video)
        #expect(video.pixelFormat == "yuv420p" && video.color.transfer == "bt709" && video.color.primaries == "bt709")
        let luma = try Self.patchLuma(result.url)
        #expect(luma[0] < luma[1] && luma[1] < luma[2] && luma[0] >= 16 && luma[2] <= 235, "\(luma)")
        #expect(result.analytics.encoding?.hdr?.summary == "tone-mapped HLG 1000 nits to SDR BT.709")
    }

    /// `.keep` with H.264: High 10, still PQ and BT.2020, the patches' 10-bit values unchanged.
    @Test func keepWritesHigh10WithTheHDRTags() async throws {
        let (result, output, _) = try await Harness.compress("hdr_patches_pq.mp4") {
            $0.videoCodec = .h264
            $0.hdr = .keep
        }
        let video = try #require(output.primaryVideo)
        #expect(video.profile == "High 10" && video.video?.pixelFormat == "yuv420p10le")
        #expect(video.video?.color.transfer == "smpte2084" && video.video?.color.primaries == "bt2020")
        let luma = try Self.patchLuma(result.url)
        #expect(abs(luma[1] - 509) < 4 && abs(luma[2] - 723) < 4, "\(luma)")
        let hdr = try #require(result.analytics.encoding?.hdr)
        #expect(!hdr.toneMapped && hdr.peakNits == nil)
    }

    /// `.toneMap` with HEVC: SDR 8-bit Main, BT.709.
    @Test func toneMapAppliesToHEVCToo() async throws {
        let (result, output, _) = try await Harness.compress("hdr_patches_pq.mp4") {
            $0.videoCodec = .hevc
            $0.hdr = .toneMap
        }
        let video = try #require(output.primaryVideo)
        #expect(video.profile == "Main" && video.video?.pixelFormat == "yuv420p" && video.video?.color.transfer == "bt709")
        #expect(video.video?.hdr == nil)
        #expect(try Self.patchLuma(result.url)[2] > 225)
    }

    /// SDR sources get no HDR entry and no tone map.
    @Test func sdrSourcesAreLeftAlone() async throws {
        let (result, _, _) = try await Harness.compress("cfr_audio.mp4") { $0.videoCodec = .h264 }
        #expect(result.analytics.encoding?.hdr == nil)
        #expect(result.analytics.encoding?.videoFilter.contains("tonemap") == false)
    }
}
