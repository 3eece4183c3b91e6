import Foundation
import Testing

/// `reel report`: a self-contained HTML page, rendered by headless Chromium (Debian's
/// `chromium`, which `make test` installs) to check it loads with its timeline and pictures.
@Suite(.timeLimit(.minutes(5))) struct ReportTests {
    /// Runs Chromium headless on `page`; returns its standard output (suspending while it runs).
    static func chromium(_ arguments: [String], page: URL) async throws -> String {
        let capture = page.deletingLastPathComponent().appendingPathComponent(".chromium-\(UUID().uuidString.prefix(8))")
        try Data().write(to: capture)
        defer { try? FileManager.default.removeItem(at: capture) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1100,1400"]
            + arguments + [page.absoluteString]
        process.standardOutput = try FileHandle(forWritingTo: capture)
        process.standardError = FileHandle.nullDevice
        try process.run()
        try #require(await process.exit(timeout: 120), "chromium ran longer than 120 s")
        try #require(process.terminationStatus == 0, "chromium exited with \(process.terminationStatus)")
        return try String(contentsOf: capture, encoding: .utf8)
    }

    @Test func theReportLoadsInChromiumWithItsTimelineAndPictures() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let run = try await Reel.run(["report", "story.mp4", "-o", "report.html", "-q"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let page = scratch.path("report.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"), "not self-contained")
        let analysis = try await Reel.run(["analyze", "story.mp4", "--json", "-q"], in: scratch.url).jsonObject()
        let shots = (analysis["shots"] as? [Any])?.count ?? 0, highlights = (analysis["highlights"] as? [Any])?.count ?? 0
        let dom = try await Self.chromium(["--dump-dom"], page: page)
        #expect(dom.contains("<svg id=\"timeline\""))
        #expect(dom.components(separatedBy: "<img ").count - 1 == 1 + shots + highlights, "pictures")
        #expect(dom.components(separatedBy: "class=\"shot\"").count - 1 == shots)
        #expect(dom.components(separatedBy: "class=\"highlight\"").count - 1 == highlights)
        #expect(dom.contains("id=\"shots\"") && dom.contains("id=\"highlights\""))
        // Levels with one decimal (a shot at 5.62 read "level 6" and was no highlight), shots
        // marked by the highlight they belong to, and the key frame's label under the level
        // curve's floor (y 170), not on the curve.
        let captions = html.components(separatedBy: "<figcaption>shot ").dropFirst().compactMap { $0.split(separator: "<").first }
        #expect(!captions.isEmpty && captions.allSatisfy { $0.range(of: #"level \d\.\d"#, options: .regularExpression) != nil }, "\(captions)")
        #expect(captions.contains { $0.contains(", in highlight 1") })
        let label = try #require(html.range(of: ##"y="(\d+(\.\d+)?)"[^>]*fill="#d62728">key frame"##, options: .regularExpression))
        let y = Double(html[label].split(separator: "\"")[1]) ?? 0
        #expect(y > 170, "the key frame label at y \(y)")
        let screenshot = scratch.path("report.png")
        _ = try await Self.chromium(["--screenshot=\(screenshot.path)"], page: page)
        // The timeline sits below the summary (about y 300-500 of 1100 px wide); the key frame
        // below it. Neither may be blank.
        let timeline = try ImageLuma.range(screenshot, x: 40, y: 320, width: 1000, height: 160)
        let pictures = try ImageLuma.range(screenshot, x: 40, y: 600, width: 600, height: 300)
        #expect(timeline.1 - timeline.0 > 100, "timeline \(timeline)")
        #expect(pictures.1 - pictures.0 > 100, "pictures \(pictures)")
        let alongside = try await Reel.run(["analyze", "story.mp4", "--report", "analysis.html", "-q"], in: scratch.url)
        #expect(alongside.status == 0 && alongside.stdout.contains("key frame"), "\(alongside.stderr)")
        #expect(try String(contentsOf: scratch.path("analysis.html"), encoding: .utf8).contains("<svg id=\"timeline\""))
        let again = try await Reel.run(["report", "story.mp4", "-o", "report.html"], in: scratch.url)
        #expect(again.status == 1 && again.stderr.contains("already exists"))
    }

    /// `--report` on `compress` and `highlights`: before and after, the ranges kept, the output's
    /// bit rate a bar per second, six pictures of the output, then the source's analysis (its
    /// timeline, pictures and tables); Chromium renders the chart.
    @Test func compressionAndReelReportsLoadInChromium() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let run = try await Reel.run(["compress", "story.mp4", "-o", "out.mp4", "--speed", "ultrafast", "--report", "out.html", "-q"],
                               in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let page = scratch.path("out.html")
        let dom = try await Self.chromium(["--dump-dom"], page: page)
        #expect(dom.contains("<svg id=\"bitrate\""))
        let chart = dom.components(separatedBy: "<svg id=\"bitrate\"").dropFirst().first?.components(separatedBy: "</svg>").first ?? ""
        let bars = chart.components(separatedBy: "<rect ").count - 1
        #expect((24...25).contains(bars), "\(bars) bars for 24 s")
        #expect(dom.components(separatedBy: "<figcaption>output at ").count - 1 == 6)
        #expect(dom.contains("876.9 kB") && dom.contains("kept 0:00-0:24"), "sizes and ranges")
        #expect(dom.contains("<svg id=\"timeline\"") && dom.contains("id=\"shots\""), "the source's analysis")
        let screenshot = scratch.path("out.png")
        _ = try await Self.chromium(["--screenshot=\(screenshot.path)"], page: page)
        let chartPixels = try ImageLuma.range(screenshot, x: 40, y: 380, width: 1000, height: 140)
        #expect(chartPixels.1 - chartPixels.0 > 100, "chart \(chartPixels)")
        let reel = try await Reel.run(["highlights", "story.mp4", "-o", "reel.mp4", "--speed", "ultrafast", "--report", "reel.html", "-q"],
                                in: scratch.url)
        #expect(reel.status == 0, "\(reel.stderr)")
        let reelPage = try String(contentsOf: scratch.path("reel.html"), encoding: .utf8)
        #expect(reelPage.contains("kept 0:06-0:10") && reelPage.contains("<svg id=\"timeline\""), "the reel's ranges and analysis")
        let batch = try await Reel.run(["compress", "story.mp4", "out.mp4", "--report", "x.html"], in: scratch.url)
        #expect(batch.status == 2)
    }

    /// `--faces DIR`: the people a face index found in the video, a lane each, marked where
    /// they were seen (a slideshow of Obama, Biden, Obama, 4 s each, a keyframe a second).
    @Test func peopleFromAFaceIndexAreLanes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let photos = try ["obama.jpg", "biden.jpg", "obama2.jpg"].map { try FacesCommandTests.photo($0).path }
        let scale = "scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=10"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-y"] + photos.flatMap { ["-loop", "1", "-t", "4", "-i", $0] } + [
            "-filter_complex", "[0]\(scale)[a];[1]\(scale)[b];[2]\(scale)[c];[a][b][c]concat=n=3:v=1:a=0,format=yuv420p",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "10", scratch.path("talk.mp4").path]
        try process.run()
        _ = await process.exit(timeout: 120)
        try #require(process.terminationStatus == 0)
        let added = try await Reel.run(["faces", "add", "talk.mp4", "--index", "idx"], in: scratch.url)
        #expect(added.status == 0)
        let stale = try await Reel.run(["report", "talk.mp4", "--faces", "idx", "-o", "talk.html"], in: scratch.url)
        #expect(stale.status == 1 && stale.stderr.contains("reel faces update"), "\(stale.stderr)")
        let updated = try await Reel.run(["faces", "update", "--index", "idx"], in: scratch.url)
        #expect(updated.status == 0)
        let run = try await Reel.run(["report", "talk.mp4", "--faces", "idx", "-o", "talk.html", "-q"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let dom = try await Self.chromium(["--dump-dom"], page: scratch.path("talk.html"))
        let lanes = dom.components(separatedBy: "<g class=\"person\">").dropFirst()
        #expect(lanes.count == 2, "two people")
        // A mark per sample the index saw them on (every 0.75 s and after each cut): Obama for
        // 8 s (0-4 and 8-12 s), Biden for 4 s.
        let marks = lanes.map { $0.components(separatedBy: "</g>")[0].components(separatedBy: "<rect ").count - 1 }
        #expect(marks.count == 2 && (8...16).contains(marks[0]) && (4...8).contains(marks[1]), "\(marks)")
    }
}
