import Foundation
import Testing
@testable import ReelKit
@testable import ReelMedia

/// interlaced.mp4 weaves 50 pictures a second into 25 interlaced ones (top field first), as TV
/// recordings and camcorder tapes are. Shown as whole pictures, its moving parts comb; the
/// compressed video, its stills and the frames a reel is made of are deinterlaced.
@Suite(.timeLimit(.minutes(5))) struct InterlacedSourceTests {
    /// ffmpeg's `idet` verdict over every picture of `url`: (interlaced, progressive) counts.
    static func fieldVerdicts(_ url: URL) throws -> (interlaced: Int, progressive: Int) {
        let log = try Fixtures.run("/bin/sh", ["-c", "/usr/bin/ffmpeg -hide_banner -nostats -i '\(url.path)' -map 0:v:0 -vf idet -f null - 2>&1"])
        guard let line = log.split(separator: "\n").first(where: { $0.contains("Multi frame detection") }) else { return (0, 0) }
        let words = line.split(separator: " ").map(String.init)
        func count(_ label: String) -> Int {
            words.firstIndex(of: label).flatMap { words.index(after: $0) < words.count ? Int(words[words.index(after: $0)]) : nil } ?? 0
        }
        return (count("TFF:") + count("BFF:"), count("Progressive:"))
    }

    /// How much neighbouring rows differ against rows two apart: about 0.6 for a whole picture
    /// (rows change smoothly), about 1 for a combed one (each row is from the other field).
    static func combing(_ url: URL) throws -> Double {
        let directory = try Fixtures.scratchDirectory("combing")
        let raw = directory.appendingPathComponent("picture.gray")
        let info = try MediaInfo.probe(url)
        let width = try #require(info.primaryVideo?.video?.width), height = try #require(info.primaryVideo?.video?.height)
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", url.path, "-frames:v", "1", "-pix_fmt", "gray",
                                             "-f", "rawvideo", raw.path])
        let pixels = [UInt8](try Data(contentsOf: raw))
        var nextRow = 0, twoRows = 0
        for row in 0..<(height - 2) {
            for column in 0..<width {
                let here = Int(pixels[row * width + column])
                nextRow += abs(Int(pixels[(row + 1) * width + column]) - here)
                twoRows += abs(Int(pixels[(row + 2) * width + column]) - here)
            }
        }
        return Double(nextRow) / Double(max(twoRows, 1))
    }

    @Test func theProbeSaysWhatIsInterlaced() throws {
        #expect(try MediaInfo.probe(try Fixtures.clip("interlaced.mp4")).primaryVideo?.video?.isInterlaced == true)
        #expect(try MediaInfo.probe(try Fixtures.clip("cfr_audio.mp4")).primaryVideo?.video?.isInterlaced == false)
    }

    /// The compression came out combed: idet found every picture interlaced (50 of 50).
    @Test func aCompressedInterlacedVideoIsWholePictures() async throws {
        let source = try Fixtures.clip("interlaced.mp4")
        let before = try Self.fieldVerdicts(source)
        #expect(before.interlaced >= 45, "\(before)")
        let (result, output, _) = try await Harness.compress("interlaced.mp4")
        let after = try Self.fieldVerdicts(result.url)
        #expect(after.progressive >= 40 && after.interlaced <= 8, "\(after)")
        #expect(result.analytics.compressedFrameCount == 50 && abs(output.duration - 2) < 0.05)
        #expect(result.analytics.encoding?.videoFilter.contains("bwdif=") == true)
        // A progressive source's pictures are not touched.
        let (plain, _, _) = try await Harness.compress("cfr_audio.mp4")
        #expect(plain.analytics.encoding?.videoFilter.contains("bwdif") == false)
    }

    /// A progressive film coded as interlaced (a camera's interlaced mode, film on a broadcast)
    /// says it is interlaced, but its two fields are of one moment. Deinterlacing it anyway
    /// softened it: at CRF 16, 48.2 dB from the source against 49.9 dB for the same encode
    /// without. `idet` finds its pictures whole and clears the flag, so the output is as close
    /// to the source as a plain encode.
    @Test func aProgressiveVideoCodedAsInterlacedIsNotSoftened() async throws {
        let directory = try Fixtures.scratchDirectory()
        let film = directory.appendingPathComponent("film.mp4")
        let megamind = try await offPool { try FaceFixtures.footage("Megamind.avi") }
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-t", "4", "-i", megamind.path, "-an", "-vf", "setfield=tff",
                                             "-c:v", "libx264", "-preset", "veryfast", "-flags", "+ilme+ildct", "-x264-params",
                                             "tff=1:crf=10", "-threads", "2", "-pix_fmt", "yuv420p", film.path])
        #expect(try MediaInfo.probe(film).primaryVideo?.video?.isInterlaced == true)
        func psnr(_ url: URL) throws -> Double {
            let log = try Fixtures.run("/bin/sh", ["-c", "/usr/bin/ffmpeg -hide_banner -nostats -i '\(url.path)' -i '\(film.path)' "
                + "-lavfi '[0:v][1:v]psnr' -f null - 2>&1"])
            let average = log.components(separatedBy: "average:").last?.split(separator: " ").first
            return average.flatMap { Double($0) } ?? 0
        }
        var config = Harness.fastConfig(in: directory)
        config.videoQuality = 1
        config.useExplicitBitrate = false
        config.outputURL = directory.appendingPathComponent("reel.mp4")
        let result = try await VideoCompressor().compressVideo(film, config: config)
        // The same encode by the ffmpeg CLI (ultrafast, CRF 16), as is and deinterlaced.
        func encoded(_ name: String, filter: [String]) throws -> URL {
            let url = directory.appendingPathComponent(name)
            try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", film.path] + filter
                + ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "16", "-threads", "2", url.path])
            return url
        }
        let kept = try psnr(result.url)
        let plain = try psnr(encoded("plain.mp4", filter: []))
        let softened = try psnr(encoded("bwdif.mp4", filter: ["-vf", "bwdif=mode=send_frame:deint=interlaced"]))
        #expect(kept > plain - 0.5 && kept > softened + 1, "\(kept) dB; as is \(plain) dB, deinterlaced \(softened) dB")
    }

    /// The thumbnail was a combed picture (0.99 on the measure above).
    @Test func aStillOfAnInterlacedVideoIsWhole() async throws {
        let source = try Fixtures.clip("interlaced.mp4")
        let directory = try Fixtures.scratchDirectory()
        let still = try await Thumbnailer().thumbnail(
            of: source, at: MediaTime(value: 1, timescale: 1), to: directory.appendingPathComponent("still.png"))
        let combing = try Self.combing(still.url)
        #expect(combing < 0.8, "\(combing)")
        let (raw, _, _) = try await Harness.compress("interlaced.mp4") { $0.streamCopy = true }
        #expect(try Self.combing(raw.url) > 0.9)
    }
}
