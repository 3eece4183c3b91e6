import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelKit
@testable import ReelMedia

/// A file whose download or copy was interrupted keeps a header that promises all of it. Reel
/// compresses what is there (as the ffmpeg CLI does), says where the data ends, and analyzes
/// only that.
@Suite struct CutShortSourceTests {
    /// An 8 s clip with sound, its index at the front (as web downloads have it), in MP4 and
    /// Matroska, each cut to its first half.
    static func cutShortClips(in directory: URL) throws -> [(whole: URL, cut: URL)] {
        try ["mp4", "mkv"].map { container in
            let whole = directory.appendingPathComponent("whole.\(container)")
            let cut = directory.appendingPathComponent("cut.\(container)")
            try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=8",
                                                 "-f", "lavfi", "-i", "sine=frequency=440:duration=8",
                                                 "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-c:a", "aac"]
                                + (container == "mp4" ? ["-movflags", "+faststart"] : []) + [whole.path])
            let bytes = try Data(contentsOf: whole)
            try bytes.prefix(bytes.count / 2).write(to: cut)
            return (whole, cut)
        }
    }

    @Test func aCutShortSourceIsCompressedToWhereItsDataEnds() async throws {
        let directory = try Fixtures.scratchDirectory()
        for (whole, cut) in try Self.cutShortClips(in: directory) {
            #expect(try MediaInfo.probe(cut).duration > 7.5, "the header still promises 8 s")
            var config = Harness.fastConfig(in: directory)
            config.outputURL = directory.appendingPathComponent("out-\(cut.pathExtension).mp4")
            let result = try await VideoCompressor().compressVideo(cut, config: config)
            let end = try #require(result.analytics.sourceCutShortAt, "\(cut.lastPathComponent)")
            #expect(end > 1.5 && end < 6, "\(cut.lastPathComponent): data ends at \(end) s")
            let output = try MediaInfo.probe(result.url)
            #expect(abs(output.duration - end) < 0.3, "\(cut.lastPathComponent): \(output.duration) s written, data to \(end) s")
            #expect(try #require(output.primaryVideo?.frameCount) >= Int64(end * 25) - 2)

            // A lossless copy says so too.
            var copying = config
            copying.streamCopy = true
            copying.outputURL = directory.appendingPathComponent("copy-\(cut.pathExtension).mp4")
            let copied = try await VideoCompressor().compressVideo(cut, config: copying)
            let copiedEnd = try #require(copied.analytics.sourceCutShortAt, "a copy of \(cut.lastPathComponent)")
            #expect(abs(copiedEnd - end) < 0.3)

            config.outputURL = directory.appendingPathComponent("whole-\(whole.pathExtension).mp4")
            let intact = try await VideoCompressor().compressVideo(whole, config: config)
            #expect(intact.analytics.sourceCutShortAt == nil, "\(whole.lastPathComponent)")
            copying.outputURL = directory.appendingPathComponent("copy-whole-\(whole.pathExtension).mp4")
            #expect(try await VideoCompressor().compressVideo(whole, config: copying).analytics.sourceCutShortAt == nil)

            // A highlight reel reads only its pieces; its analysis read to the data's end.
            var reel = config
            reel.trim = .highlights(HighlightReelOptions(maximumDuration: 2))
            reel.outputURL = directory.appendingPathComponent("reel-\(cut.pathExtension).mp4")
            let reelEnd = try await VideoCompressor().compressVideo(cut, config: reel).analytics.sourceCutShortAt
            #expect(abs((reelEnd ?? 0) - end) < 0.3, "a reel of \(cut.lastPathComponent): \(String(describing: reelEnd))")
            reel.outputURL = directory.appendingPathComponent("reel-whole-\(whole.pathExtension).mp4")
            #expect(try await VideoCompressor().compressVideo(whole, config: reel).analytics.sourceCutShortAt == nil)

            let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: cut))
            #expect(abs(analysis.duration - end) < 0.3, "\(cut.lastPathComponent): analysed \(analysis.duration) s")
            #expect(analysis.segments.allSatisfy { $0.timeRange.end.seconds <= end + 0.3 })
            let wholeAnalysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: whole))
            #expect(abs(wholeAnalysis.duration - 8) < 0.1)
        }
    }

    /// A contact sheet spreads its tiles over the data there is: before, every tile past the
    /// data's end showed its last picture (a 1 s download claiming 596 s gave twelve of them).
    @Test func aContactSheetOfACutShortSourceSpreadsOverItsData() async throws {
        let directory = try Fixtures.scratchDirectory()
        for (whole, cut) in try Self.cutShortClips(in: directory) {
            let sheet = try await Thumbnailer().contactSheet(
                of: cut, frames: 8, tileWidth: 80, to: directory.appendingPathComponent("sheet-\(cut.pathExtension).png"))
            let times = sheet.times.map(\.seconds)
            #expect(Set(times).count == 8, "\(cut.lastPathComponent): \(times)")
            #expect((times.last ?? 0) > 2.5 && (times.last ?? 9) < 4.2, "\(cut.lastPathComponent): \(times)")
            let intact = try await Thumbnailer().contactSheet(
                of: whole, frames: 8, tileWidth: 80, to: directory.appendingPathComponent("sheet-whole-\(whole.pathExtension).png"))
            #expect((intact.times.last?.seconds ?? 0) > 7.3, "\(whole.lastPathComponent): \(intact.times)")
        }
    }

    /// A target quality samples the middle of each segment: before, a sample past the data
    /// of a file cut short failed the whole compression ("no video frame could be decoded").
    /// It now compresses what is there, as a plain compression does, and a range that lies
    /// wholly past the data is refused with where the data ends.
    @Test func aTargetQualityOfACutShortSourceMeasuresTheDataThereIs() async throws {
        let directory = try Fixtures.scratchDirectory()
        for (whole, cut) in try Self.cutShortClips(in: directory) {
            var config = Harness.fastConfig(in: directory)
            config.targetQuality = TargetQuality(.ssim, 0.95)
            config.outputURL = directory.appendingPathComponent("quality-\(cut.pathExtension).mp4")
            let result = try await VideoCompressor().compressVideo(cut, config: config)
            let end = try #require(result.analytics.sourceCutShortAt, "\(cut.lastPathComponent)")
            #expect(end > 1.5 && end < 6, "\(cut.lastPathComponent): data ends at \(end) s")
            let output = try MediaInfo.probe(result.url)
            #expect(abs(output.duration - end) < 0.3, "\(cut.lastPathComponent): \(output.duration) s written, data to \(end) s")
            let report = try #require(result.analytics.targetQuality)
            #expect(report.segments.allSatisfy { $0.end <= end + 0.1 && !$0.samples.isEmpty }, "\(report.segments)")
            #expect(report.achieved > 0.9, "\(report.achieved)")

            config.outputURL = directory.appendingPathComponent("quality-whole-\(whole.pathExtension).mp4")
            #expect(try await VideoCompressor().compressVideo(whole, config: config).analytics.sourceCutShortAt == nil)

            for quality in [nil, TargetQuality(.ssim, 0.95)] {
                var past = config
                past.targetQuality = quality
                past.trim = .ranges([TimeRange(start: MediaTime(seconds: 6, timescale: 1000), end: MediaTime(seconds: 7, timescale: 1000))])
                // Into folders that do not exist yet: made for the output, removed with it.
                past.outputURL = directory.appendingPathComponent("new/deeper/past-\(cut.pathExtension).mp4")
                do {
                    _ = try await VideoCompressor().compressVideo(cut, config: past)
                    Issue.record("\(cut.lastPathComponent): a range past the data was compressed")
                } catch {
                    guard case .decodingFailed(let url, _, let reason) = error else { throw error }
                    #expect(url == cut)
                    #expect(reason.contains("cut short") && reason.contains(String(format: "%.2f s", end)), "\(reason)")
                }
                #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("new").path),
                        "the folders made for a failed output are left")
            }
        }
    }
}
