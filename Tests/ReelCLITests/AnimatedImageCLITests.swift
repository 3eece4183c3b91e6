import Foundation
import Testing

/// `--format gif|webp` and `-o NAME.gif|.webp` on `compress`, `highlights` and `split`, read
/// back with ffprobe and the files' bytes; and both formats loaded in headless Chromium, which
/// must show them, read their loop count as forever, and decode every picture.
@Suite(.timeLimit(.minutes(5))) struct AnimatedImageCLITests {
    /// ffprobe's decoded frame count, width and seconds of a GIF's only stream, and its streams.
    static func gif(_ url: URL) async throws -> (frames: Int, width: Int, duration: Double, codecs: [String]) {
        let run = try await Tool.run("/usr/bin/ffprobe", [
            "-v", "error", "-count_frames", "-show_entries", "stream=codec_name,width,nb_read_frames:format=duration",
            "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let streams = json["streams"] as? [[String: Any]] ?? []
        let duration = ((json["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init) ?? 0
        return (Int(streams.first?["nb_read_frames"] as? String ?? "") ?? 0, streams.first?["width"] as? Int ?? 0, duration,
                streams.compactMap { $0["codec_name"] as? String })
    }

    /// An animated WebP's ANIM loop count and number of ANMF frames, from its RIFF chunks.
    static func webp(_ url: URL) throws -> (loop: Int?, frames: Int) {
        let bytes = [UInt8](try Data(contentsOf: url))
        var offset = 12, loop: Int?, frames = 0
        while offset + 8 <= bytes.count {
            let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            if tag == "ANIM" { loop = Int(bytes[offset + 12]) | Int(bytes[offset + 13]) << 8 }
            if tag == "ANMF" { frames += 1 }
            offset += 8 + size + (size & 1)
        }
        return (loop, frames)
    }

    /// Whether a GIF carries the NETSCAPE2.0 extension with loop count 0 (forever).
    static func gifLoopsForever(_ url: URL) throws -> Bool {
        let bytes = [UInt8](try Data(contentsOf: url))
        let block = Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0]
        return (0...(bytes.count - block.count)).contains { bytes[$0..<$0 + block.count].elementsEqual(block) }
    }

    @Test func highlightReelAsGIFAndShotsAsWebP() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let reel = try await Reel.run(["highlights", "story.mp4", "--format", "gif", "-o", "reel.gif", "-q"], in: scratch.url)
        #expect(reel.status == 0, "\(reel.stderr)")
        let gif = try await Self.gif(scratch.path("reel.gif"))
        #expect(gif.codecs == ["gif"] && gif.width == 320, "one picture stream, 320 px kept (never upscaled): \(gif)")
        #expect(gif.duration > 1 && abs(Double(gif.frames) - gif.duration * 15) <= 1.5, "15 fps: \(gif)")
        #expect(try Self.gifLoopsForever(scratch.path("reel.gif")))

        let ten = try await Reel.run(["compress", "story.mp4", "--start", "6", "--end", "8", "-o", "ten.gif", "--fps", "10",
                                      "--max-dimension", "160", "-q"], in: scratch.url)
        #expect(ten.status == 0, "\(ten.stderr)")
        let given = try await Self.gif(scratch.path("ten.gif"))
        #expect(given.frames == 20 && given.width == 160, "the --fps and --max-dimension given are kept: \(given)")

        let analyze = try await Reel.run(["analyze", "story.mp4", "--json", "-q"], in: scratch.url)
        try analyze.stdout.write(to: scratch.path("story.json"), atomically: true, encoding: .utf8)
        let split = try await Reel.run(["split", "story.mp4", "--shots", "-o", "shots", "--analysis", "story.json",
                                        "--format", "webp", "-q"], in: scratch.url)
        #expect(split.status == 0, "\(split.stderr)")
        let pieces = try FileManager.default.contentsOfDirectory(atPath: scratch.path("shots").path).sorted()
        #expect(pieces.count >= 3 && pieces.allSatisfy { $0.hasSuffix(".webp") }, "\(pieces)")
        // libwebp writes a shot whose pictures never change (story's black first shot) as a
        // still picture: no ANIM chunk, nothing to loop. Every other shot loops forever.
        let shots = try pieces.map { try Self.webp(scratch.path("shots/\($0)")) }
        #expect(shots.allSatisfy { ($0.loop == 0 && $0.frames > 1) || ($0.loop == nil && $0.frames == 0) }, "\(shots)")
        #expect(shots.filter { $0.loop == 0 }.count >= pieces.count - 1, "\(shots)")

        let mismatch = try await Reel.run(["compress", "story.mp4", "-o", "x.gif", "--format", "webp"], in: scratch.url)
        #expect(mismatch.status == 2 && mismatch.stderr.contains("does not match"), "\(mismatch.stderr)")
        let copy = try await Reel.run(["compress", "story.mp4", "-o", "x.gif", "--copy"], in: scratch.url)
        #expect(copy.status == 2 && copy.stderr.contains("stream copy"), "\(copy.stderr)")
        let report = try await Reel.run(["compress", "story.mp4", "-o", "x.webp", "--report", "x.html"], in: scratch.url)
        #expect(report.status == 2 && report.stderr.contains("animated WebP"), "\(report.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.webp").path), "refused before any work")
    }

    /// `--format gif` and `-o NAME.gif` put the format's 15 fps and 480 px in place of a video
    /// preset's; a preset made for GIF keeps its own.
    @Test func aPresetMadeForGIFKeepsItsFrameRateAndSize() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "long.mp4")
        let preset = """
            {"name": "tiny-gif", "quality": "lowQuality", "summary": "A small GIF.",
             "video": {"codec": "h264", "maxLongerDimension": 160, "fps": 10, "bitrateMode": "cappedQuality",
                       "bitrate": 500000, "quality": 0.45, "maxKeyFrameInterval": 30},
             "audio": {"codec": "aac", "bitrate": 64000, "sampleRate": 44100, "channels": 1},
             "noiseReduction": "none", "contentAwareOptimization": false, "fileType": "gif"}
            """
        _ = try scratch.write(preset, to: "tiny.json")
        let own = try await Reel.run(["compress", "long.mp4", "--preset-file", "tiny.json", "--end", "2", "-q"], in: scratch.url)
        #expect(own.status == 0, "\(own.stderr)")
        let tiny = try await Self.gif(scratch.path("long-compressed.gif"))
        #expect(tiny.width == 160 && tiny.frames == 20, "the preset's 160 px and 10 fps: \(tiny)")
        let low = try await Reel.run(["compress", "long.mp4", "--preset", "low", "-o", "low.gif", "--end", "2", "-q"], in: scratch.url)
        #expect(low.status == 0, "\(low.stderr)")
        let video = try await Self.gif(scratch.path("low.gif"))
        #expect(video.width == 480 && video.frames == 30, "the format's 480 px and 15 fps over low's 640 px, 20 fps: \(video)")
    }

    /// A page shows each file in an `<img>` and decodes it with WebCodecs' `ImageDecoder`
    /// (Chromium's own GIF and WebP decoders): the repetition count must be Infinity (loop
    /// forever), and the pictures must go from the clip's black second to its white one.
    @Test func bothLoadAndLoopForeverInChromium() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await ChromiumPage.makeBlinkClip(in: scratch)
        for name in ["blink.gif", "blink.webp"] {
            let run = try await Reel.run(["compress", "blink.mp4", "-o", name, "-q"], in: scratch.url)
            try #require(run.status == 0, "\(run.stderr)")
        }
        let page = try scratch.write(Self.page, to: "page.html")
        let (lines, results) = try await ChromiumPage.results(of: page, expected: 2)
        #expect(results.count == 2, "\(lines)")
        for result in results {
            let fields = Dictionary(uniqueKeysWithValues: result.split(separator: " ").dropFirst().compactMap { field in
                field.split(separator: "=", maxSplits: 1).map(String.init).count == 2
                    ? (String(field.split(separator: "=")[0]), String(field.split(separator: "=", maxSplits: 1)[1])) : nil
            })
            #expect(fields["natural"] == "320x180", "\(result)")
            #expect(fields["repetition"] == "Infinity", "loops forever: \(result)")
            let luma = (fields["luma"] ?? "").split(separator: ",").compactMap { Int($0) }
            #expect(luma.first.map { $0 < 20 } == true && luma.last.map { $0 > 235 } == true, "black then white: \(result)")
            let duration = Int(fields["ms"] ?? "") ?? 0
            #expect(abs(duration - 2000) <= 40, "2 s once through: \(result)")
        }
        let gif = results.first { $0.hasPrefix("gif ") } ?? ""
        #expect(gif.contains("frames=30"), "2 s at 15 fps: \(gif)")
    }

    /// The page: each image's natural size, then `ImageDecoder`'s repetition count, frame count,
    /// total length in ms and the middle pixel's brightness per picture, one line each, as
    /// what its `window.pageResult` promise resolves to.
    static let page = """
        <!doctype html><html><body>
        <img id="gif" src="blink.gif"><img id="webp" src="blink.webp">
        <script>
        function bytes(src) {
          return new Promise((ok, fail) => {
            const request = new XMLHttpRequest();
            request.open('GET', src);
            request.responseType = 'arraybuffer';
            request.onload = () => ok(request.response);
            request.onerror = () => fail('cannot read ' + src);
            request.send();
          });
        }
        async function look(name, type) {
          const img = document.getElementById(name);
          if (!img.complete) await new Promise(done => { img.onload = done; img.onerror = done; });
          const decoder = new ImageDecoder({data: await bytes(img.src), type});
          await decoder.tracks.ready;
          await decoder.completed;
          const track = decoder.tracks.selectedTrack;
          const luma = [];
          let micros = 0;
          for (let i = 0; i < track.frameCount; i++) {
            const {image} = await decoder.decode({frameIndex: i});
            const canvas = new OffscreenCanvas(image.displayWidth, image.displayHeight);
            const context = canvas.getContext('2d');
            context.drawImage(image, 0, 0);
            const pixel = context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
            luma.push(Math.round((pixel[0] + pixel[1] + pixel[2]) / 3));
            micros += image.duration || 0;
            image.close();
          }
          return `${name} natural=${img.naturalWidth}x${img.naturalHeight} repetition=${track.repetitionCount} `
            + `frames=${track.frameCount} ms=${Math.round(micros / 1000)} luma=${luma.join(',')}`;
        }
        window.pageResult = (async () => [await look('gif', 'image/gif'), await look('webp', 'image/webp')])().then(
          lines => lines.join('\\n'), error => 'error ' + error);
        </script></body></html>
        """
}
