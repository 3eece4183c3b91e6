import Foundation
import Testing

/// `reel plan`, `encode-chunk` and `assemble` with `--codec av1` (MP4) and `--codec vp9`
/// (WebM with Opus) on the first 22.5 s of the chunked fixture: the joined file decodes cleanly
/// and has the pictures, times and keyframes of one encode of the same settings, and its size.
@Suite(.timeLimit(.minutes(5))) struct ChunkedAV1Tests {
    /// Every video packet's presentation time in `url`, in milliseconds, sorted.
    static func times(_ url: URL, keyframesOnly: Bool = false) async throws -> [Int] {
        let run = try await Tool.run("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", url.path])
        return run.stdout.split(separator: "\n").compactMap { line -> Int? in
            let fields = line.split(separator: ",")
            guard let first = fields.first, let seconds = Double(first),
                  !keyframesOnly || fields.dropFirst().first?.contains("K") == true else { return nil }
            return Int((seconds * 1000).rounded())
        }.sorted()
    }

    /// VP9 at constant quality: with its default cap, libvpx's constrained quality lands each
    /// chunk on the cap while one pass over the whole clip overshoots it by about 5%.
    @Test(arguments: [("av1", "mp4", "capped"), ("vp9", "webm", "quality")])
    func chunksJoinIntoWhatOneEncodeWrites(codec: String, format: String, rateControl: String) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await ChunkedEncodeTests.clip(in: scratch)
        let settings = ["--codec", codec, "--end", "22.5", "--speed", "ultrafast", "--rate-control", rateControl]
        let planned = try await Reel.run(["plan", "chunked.mp4", "-o", "plan.json", "--chunk", "7.5s", "--format", format, "--json"]
                                         + settings, in: scratch.url)
        try #require(planned.status == 0, "\(planned.stderr)")
        let jobs = try #require(try planned.jsonObject()["jobs"] as? Int)
        #expect(jobs == 4, "three chunks on the keyframe grid and the sound")
        for index in 0..<jobs {
            let run = try await Reel.run(["encode-chunk", "plan.json", "--index", "\(index)", "-o", "chunks"], in: scratch.url,
                                         timeout: 240)
            try #require(run.status == 0, "job \(index): \(run.stderr)")
        }
        let joined = "joined.\(format)", single = "single.\(format)"
        let assembled = try await Reel.run(["assemble", "plan.json", "--chunks", "chunks", "-o", joined], in: scratch.url)
        try #require(assembled.status == 0, "\(assembled.stderr)")
        let one = try await Reel.run(["compress", "chunked.mp4", "-o", single, "-q"] + settings, in: scratch.url)
        try #require(one.status == 0, "\(one.stderr)")

        let decoded = try await Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-i", scratch.path(joined).path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "decodes cleanly: \(decoded.stderr)")
        let joinedTimes = try await Self.times(scratch.path(joined)), singleTimes = try await Self.times(scratch.path(single))
        #expect(joinedTimes.count == 675)
        #expect(joinedTimes == singleTimes, "the same picture times as one encode")
        let streams = try await WebVideoCLITests.streams(scratch.path(joined))
        #expect(streams.codecs == [codec, format == "webm" ? "opus" : "aac"])
        // SVT-AV1 and libvpx put keyframes only every keyframe interval: chunks cut on that grid
        // start where one encode has a keyframe anyway, and spend what it spends.
        let joinedKeys = try await Self.times(scratch.path(joined), keyframesOnly: true)
        #expect(joinedKeys == (try await Self.times(scratch.path(single), keyframesOnly: true)), "the same keyframes")
        #expect(joinedKeys.count > 3)
        let sizes = try [joined, single].map { try FileManager.default.attributesOfItem(atPath: scratch.path($0).path)[.size] as? Int ?? 0 }
        #expect(abs(Double(sizes[0]) / Double(sizes[1]) - 1) <= 0.01, "\(sizes)")
    }
}
