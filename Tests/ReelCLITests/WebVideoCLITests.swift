import Foundation
import Testing

/// `-o NAME.webm` and `--codec av1|vp9` on `compress`, read back with ffprobe, and played in
/// headless Chromium: each file loads in a `<video>`, shows the clip's black second then its
/// white one, and reaches its end.
@Suite(.timeLimit(.minutes(5))) struct WebVideoCLITests {
    /// ffprobe's codec names of `url`'s streams and its sound's sample rate.
    static func streams(_ url: URL) async throws -> (codecs: [String], sampleRate: Int?) {
        let run = try await Tool.run("/usr/bin/ffprobe", [
            "-v", "error", "-show_entries", "stream=codec_name,sample_rate", "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let streams = json["streams"] as? [[String: Any]] ?? []
        return (streams.compactMap { $0["codec_name"] as? String },
                streams.compactMap { ($0["sample_rate"] as? String).flatMap(Int.init) }.first)
    }

    @Test func webMAndAV1MP4PlayToTheirEndInChromium() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await ChromiumPage.makeBlinkClip(in: scratch, sampleRate: 44100)
        // A WebM with neither codec given gets AV1 and Opus; VP9 is asked for; AV1 in MP4 keeps AAC.
        let outputs: [(name: String, options: [String], codecs: [String])] = [
            ("av1.webm", [], ["av1", "opus"]),
            ("vp9.webm", ["--codec", "vp9"], ["vp9", "opus"]),
            ("av1.mp4", ["--codec", "av1"], ["av1", "aac"]),
        ]
        for output in outputs {
            let run = try await Reel.run(["compress", "blink.mp4", "-o", output.name, "--speed", "ultrafast", "-q"] + output.options,
                                         in: scratch.url)
            try #require(run.status == 0, "\(output.name): \(run.stderr)")
            let found = try await Self.streams(scratch.path(output.name))
            #expect(found.codecs == output.codecs, "\(output.name)")
            if output.codecs.contains("opus") { #expect(found.sampleRate == 48_000, "\(output.name): resampled") }
        }
        let page = try scratch.write(Self.page(outputs.map(\.name)), to: "page.html")
        let (_, results) = try await ChromiumPage.results(of: page, expected: outputs.count)
        #expect(results.count == outputs.count, "\(results)")
        for result in results {
            #expect(result.contains("size=320x180"), "\(result)")
            #expect(result.contains("luma=0,255") || Self.blackThenWhite(result), "black then white: \(result)")
            #expect(result.contains("ended=true"), "reaches its end: \(result)")
            let duration = result.split(separator: " ").first { $0.hasPrefix("duration=") }
                .flatMap { Double($0.dropFirst("duration=".count)) } ?? 0
            #expect(abs(duration - 2) < 0.05, "\(result)")
        }
    }

    /// Whether the `luma=a,b` field of a result line is dark then light.
    static func blackThenWhite(_ line: String) -> Bool {
        guard let field = line.split(separator: " ").first(where: { $0.hasPrefix("luma=") }) else { return false }
        let values = field.dropFirst("luma=".count).split(separator: ",").compactMap { Int($0) }
        return values.count == 2 && values[0] < 20 && values[1] > 235
    }

    /// The page: for each file, a `<video>` that loads it, seeks to the middle of each second and
    /// reads the middle pixel's brightness, then plays its last half second and reports whether
    /// the element has ended; the lines are what its `window.pageResult` promise resolves to.
    static func page(_ names: [String]) -> String {
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        return """
            <!doctype html><html><body>
            <script>
            // 'seeked' can come before the new picture is on screen (seen once on a loaded machine:
            // AV1 in MP4 read black at 1.5 s); a video frame callback says it is there.
            function seek(video, time) {
              const shown = new Promise(done => {
                if (!video.requestVideoFrameCallback) { done(); return; }
                video.requestVideoFrameCallback(() => done());
                setTimeout(done, 5000);
              });
              const seeked = new Promise(done => { video.onseeked = done; });
              video.currentTime = time;
              return Promise.all([seeked, shown]);
            }
            function luma(video) {
              const canvas = document.createElement('canvas');
              canvas.width = video.videoWidth;
              canvas.height = video.videoHeight;
              const context = canvas.getContext('2d');
              context.drawImage(video, 0, 0);
              const pixel = context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
              return Math.round((pixel[0] + pixel[1] + pixel[2]) / 3);
            }
            async function look(src) {
              const video = document.createElement('video');
              video.muted = true;
              video.preload = 'auto';
              document.body.appendChild(video);
              const ready = new Promise((ok, fail) => {
                video.onloadeddata = ok;
                video.onerror = () => fail('error=' + (video.error && video.error.code));
              });
              video.src = src;
              try { await ready; } catch (error) { return `${src} ${error}`; }
              const values = [];
              for (const time of [0.5, 1.5]) { await seek(video, time); values.push(luma(video)); }
              // The last half second played in real time, to its 'ended' event (ten seconds at most).
              await seek(video, Math.max(0, video.duration - 0.5));
              await new Promise(done => {
                video.onended = done;
                setTimeout(done, 10000);
                video.play().catch(done);
              });
              return `${src} duration=${video.duration.toFixed(3)} size=${video.videoWidth}x${video.videoHeight} `
                + `luma=${values.join(',')} ended=${video.ended}`;
            }
            window.pageResult = (async () => { const lines = []; for (const src of [\(list)]) lines.push(await look(src)); return lines; })().then(
              lines => lines.join('\\n'), error => 'error ' + error);
            </script></body></html>
            """
    }
}
