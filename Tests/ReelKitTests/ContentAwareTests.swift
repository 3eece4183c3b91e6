import Foundation
import Testing
@testable import ReelCompression
@testable import ReelMedia

/// Content-aware optimization and denoising measured on real pixels.
@Suite(.timeLimit(.minutes(5))) struct ContentAwareTests {
    /// Makes a 2 s clip from a lavfi source with the ffmpeg CLI.
    static func makeClip(_ name: String, _ source: String) throws -> URL {
        let url = Fixtures.cacheDirectory.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: Fixtures.cacheDirectory, withIntermediateDirectories: true)
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).mp4")
            try Fixtures.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                                                 "-f", "lavfi", "-i", source, "-t", "2", "-c:v", "libx264",
                                                 "-preset", "ultrafast", "-qp", "10", "-pix_fmt", "yuv420p", temporary.path])
            try? FileManager.default.moveItem(at: temporary, to: url)
        }
        return url
    }

    @Test func staticAndBusyContentAreTreatedDifferently() async throws {
        let still = try Self.makeClip("still_slide.mp4", "smptebars=size=320x180:rate=30")
        let busy = try Self.makeClip("busy_life.mp4", "life=size=320x180:rate=30:ratio=0.5:mold=10:seed=7")
        var config = Harness.fastConfig(in: try Fixtures.scratchDirectory())
        config.contentAwareOptimization = true
        let stillResult = try await VideoCompressor().compressVideo(still, config: config)
        let busyResult = try await VideoCompressor().compressVideo(busy, config: config)
        let stillAdjustment = try #require(stillResult.analytics.contentAdjustment)
        let busyAdjustment = try #require(busyResult.analytics.contentAdjustment)
        #expect(stillAdjustment.category == "static", "\(stillAdjustment.profile)")
        #expect(busyAdjustment.category == "busy", "\(busyAdjustment.profile)")
        #expect(stillAdjustment.profile.motion < busyAdjustment.profile.motion)
        #expect(stillResult.analytics.encoding?.keyFrameInterval == config.maxKeyFrameInterval * 4)
        #expect(busyResult.analytics.encoding?.keyFrameInterval == config.maxKeyFrameInterval)
        // Fewer keyframes really written for the still clip (x264 may add scene-cut ones for noise).
        #expect(try Harness.keyframeCount(stillResult.url) < Harness.keyframeCount(busyResult.url))
    }

    /// A sparse AVI of an RGB codec (cinepak, like OpenCV's tree.avi): its pictures are made
    /// planar and measured, so moving content is not taken for static (which had lengthened
    /// the keyframe interval 4x and cut the bit rate to 0.7x).
    @Test func sparseRGBVideoIsMeasuredNotGuessedStatic() async throws {
        let (result, _, _) = try await Harness.compress("sparse_rgb.avi") {
            $0.contentAwareOptimization = true
        }
        let adjustment = try #require(result.analytics.contentAdjustment)
        #expect(adjustment.profile.samples >= ContentAwareTuning.minimumPairs, "\(adjustment.profile)")
        #expect(adjustment.profile.motion > 0.02 && adjustment.profile.detail > 0, "\(adjustment.profile)")
        #expect(adjustment.category != "static" && adjustment.keyFrameIntervalFactor == 1, "\(adjustment)")
    }

    /// The AVI's index, not its header, gives the frames that exist; x265's bit-rate cap is then
    /// scaled by how long each real picture lasts (its rate control counts nominal frames).
    @Test func sparseAVICountsItsRealFrames() throws {
        let source = try MediaInfo.probe(try Fixtures.clip("sparse_rgb.avi"))
        let video = try #require(source.primaryVideo)
        #expect(video.frameCount == 20, "\(String(describing: video.frameCount))")
        #expect(abs(CompressionPlanner.sparseness(of: video, nominalRate: 15) - 115.0 / 20) < 0.1)  // 7.67 s at 15 fps, 20 pictures
        let dense = try #require(try MediaInfo.probe(try Fixtures.clip("story.mp4")).primaryVideo)
        #expect(CompressionPlanner.sparseness(of: dense, nominalRate: 30) == 1)
    }

    /// Too few measured frame pairs is no measurement: the preset's settings stay as they are.
    @Test func tooFewMeasurementsChangeNothing() {
        let none = ContentAwareTuning.adjustment(for: ContentProfile(motion: 0, detail: 0, samples: 0))
        #expect(none.category == "unmeasured" && none.keyFrameIntervalFactor == 1)
        #expect(none.bitrateFactor == 1 && none.constantRateFactorOffset == 0)
        let few = ContentAwareTuning.adjustment(for: ContentProfile(motion: 0.001, detail: 0.01, samples: 2))
        #expect(few.category == "unmeasured")
        let enough = ContentAwareTuning.adjustment(for: ContentProfile(motion: 0.001, detail: 0.01, samples: 6))
        #expect(enough.category == "static" && enough.keyFrameIntervalFactor == 4)
    }

    /// Auto levels stretch a washed-out gray picture (testsrc2's luma squeezed into 77...179)
    /// back toward the full range: the output's darkest and brightest luma move apart.
    @Test func autoLevelsStretchAWashedOutPicture() async throws {
        let flat = try Self.makeClip("washed_out_gray.mp4", "testsrc2=size=320x180:rate=30,lutyuv=y=val*0.4+77:u=128:v=128")
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.outputURL = directory.appendingPathComponent("plain.mp4")
        let plain = try await VideoCompressor().compressVideo(flat, config: config)
        config.preprocessing.autoLevels = true
        config.outputURL = directory.appendingPathComponent("levels.mp4")
        let levelled = try await VideoCompressor().compressVideo(flat, config: config)
        #expect(levelled.analytics.encoding?.videoFilter.contains("normalize") == true)
        func spread(_ url: URL) throws -> Double {
            let text = try Fixtures.run("/usr/bin/ffprobe", [
                "-v", "error", "-f", "lavfi", "-i", "movie=\(url.path),signalstats", "-read_intervals", "%+#30",
                "-show_entries", "frame_tags=lavfi.signalstats.YMIN,lavfi.signalstats.YMAX", "-of", "csv=p=0",
            ])
            let rows = text.split(separator: "\n").map { $0.split(separator: ",").compactMap { Double($0) } }.filter { $0.count == 2 }
            return rows.map { $0[1] - $0[0] }.reduce(0, +) / Double(max(rows.count, 1))
        }
        let before = try spread(plain.url), after = try spread(levelled.url)
        #expect(after > before + 40, "luma spread \(before) -> \(after)")
    }

    @Test func denoisingRemovesNoiseBeforeEncoding() async throws {
        let noisy = try Self.makeClip("noisy_gray.mp4", "color=c=gray:size=320x180:rate=30,noise=alls=25:allf=t+u")
        let directory = try Fixtures.scratchDirectory()
        var config = Harness.fastConfig(in: directory)
        config.useExplicitBitrate = false
        config.videoQuality = 0.6
        config.outputURL = directory.appendingPathComponent("plain.mp4")
        let plain = try await VideoCompressor().compressVideo(noisy, config: config)
        config.preprocessing.noiseReduction = .high
        config.outputURL = directory.appendingPathComponent("denoised.mp4")
        let denoised = try await VideoCompressor().compressVideo(noisy, config: config)
        #expect(denoised.analytics.encoding?.videoFilter.contains("hqdn3d") == true)
        // Same quality target, less noise to encode: clearly smaller.
        #expect(Double(denoised.analytics.compressedFileSize) < Double(plain.analytics.compressedFileSize) * 0.7)
    }
}
