import Foundation
import ReelKit
import Testing

/// `reel thumbnail`: default naming, overwrite rule, sheets, JSON and errors.
@Suite(.timeLimit(.minutes(5))) struct ThumbnailCommandTests {
    @Test func writesTheKeyFrameAndRefusesToOverwrite() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["thumbnail", "clip.mp4", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try run.jsonObject()
        #expect(Set(object.keys) == ["source", "output", "times", "width", "height", "damagedPictures", "shortfall"])
        #expect(object["damagedPictures"] as? Int == 0 && object["shortfall"] is NSNull)
        #expect(object["output"] as? String == "clip-thumbnail.jpg")
        #expect(object["width"] as? Int == 320 && object["height"] as? Int == 180)
        let info = try MediaInfo.probe(scratch.path("clip-thumbnail.jpg"))
        #expect(info.primaryVideo?.codecName == "mjpeg")
        let again = try await Reel.run(["thumbnail", "clip.mp4"], in: scratch.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("clip-thumbnail.jpg: already exists"))
    }

    /// Sheet tiles carry their times: story's tile at 14 s (black) shows white text in its
    /// lower left corner and stays black beside it. `--every-shot` writes one image per shot.
    @Test func sheetTilesAreTimedAndEveryShotHasAnImage() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let sheet = try await Reel.run(["thumbnail", "story.mp4", "--sheet", "6", "--columns", "3", "-o", "sheet.png", "--json"], in: scratch.url)
        #expect(sheet.status == 0, "\(sheet.stderr)")
        #expect((try sheet.jsonObject()["times"] as? [Double])?.map { $0.rounded() } == [2, 6, 10, 14, 18, 22])
        // Tiles of 320x180 with a 4 px margin and padding: the fourth starts at (4, 188).
        let label = try ImageLuma.range(scratch.path("sheet.png"), x: 10, y: 188 + 150, width: 110, height: 20).brightest
        let beside = try ImageLuma.range(scratch.path("sheet.png"), x: 200, y: 188 + 150, width: 100, height: 20).brightest
        #expect(label > 200 && beside < 40, "label \(label), beside \(beside)")
        let shots = try await Reel.run(["thumbnail", "story.mp4", "--every-shot", "-o", "shots", "--json"], in: scratch.url)
        #expect(shots.status == 0, "\(shots.stderr)")
        let images = try #require(try shots.jsonObject()["images"] as? [[String: Any]])
        let analysis = try (try await Reel.run(["analyze", "story.mp4", "--json", "-q"], in: scratch.url)).jsonObject()
        let shotRanges = try #require(analysis["shots"] as? [[String: Double]])
        #expect(images.count == shotRanges.count)
        for (image, shot) in zip(images, shotRanges) {
            let time = try #require(image["time"] as? Double)
            #expect(time >= (shot["start"] ?? 0) - 0.01 && time < (shot["end"] ?? 0), "\(time) outside \(shot)")
            let path = try #require(image["output"] as? String)
            #expect(try MediaInfo.probe(scratch.path(path)).primaryVideo?.codecName == "mjpeg")
        }
        let usage = try await Reel.run(["thumbnail", "story.mp4", "--every-shot", "--sheet", "4", "-o", "x"], in: scratch.url)
        #expect(usage.status == 2)
    }

    @Test func sheetAtAndErrors() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let sheet = try await Reel.run(["thumbnail", "clip.mp4", "--sheet", "4", "--width", "80", "-o", "s.png", "--json"],
                                 in: scratch.url)
        #expect(sheet.status == 0, "\(sheet.stderr)")
        #expect((try sheet.jsonObject()["times"] as? [Double])?.count == 4)
        #expect(try MediaInfo.probe(scratch.path("s.png")).primaryVideo?.codecName == "png")
        let at = try await Reel.run(["thumbnail", "clip.mp4", "--at", "0.5", "-o", "a.png"], in: scratch.url)
        #expect(at.status == 0)
        #expect(at.stdout.contains("at 0.500 s"), "\(at.stdout)")
        let late = try await Reel.run(["thumbnail", "clip.mp4", "--at", "9", "-o", "b.png"], in: scratch.url)
        #expect(late.status == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("b.png").path))
        let both = try await Reel.run(["thumbnail", "clip.mp4", "--at", "0.5", "--sheet", "3"], in: scratch.url)
        #expect(both.status == 2)
    }

    /// On a terminal (util-linux `script` gives one) the key frame's search shows progress on
    /// standard error; `--quiet` leaves only the result line, as for the other commands.
    @Test func quietHidesTheProgress() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let binary = try #require(Reel.binary)
        func onTerminal(_ arguments: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.currentDirectoryURL = scratch.url
            process.arguments = ["-qec", "\(binary.path) thumbnail clip.mp4 \(arguments)", "/dev/null"]
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            #expect(process.waitForExit(timeout: 60))
            #expect(process.terminationStatus == 0)
            return String(decoding: data, as: UTF8.self)
        }
        let shown = try onTerminal("-o shown.jpg")
        #expect(shown.contains("thumbnail clip.mp4: "), "progress on a terminal: \(shown)")
        let quiet = try onTerminal("-o quiet.jpg --quiet")
        #expect(!quiet.contains("thumbnail clip.mp4: ") && !quiet.contains("%"), "\(quiet)")
        #expect(quiet.contains("clip.mp4 -> quiet.jpg (320x180"), "\(quiet)")
    }

    /// `--stream N`: the disparity track of a file laid out as an iPhone Cinematic video (see
    /// Fixtures/make-fixtures.sh, cinematic.mov), in grey; a stream that is not video is refused
    /// by number, listing the video streams. `--copy` to .mov keeps the track for it.
    @Test func streamTakesThePictureOfTheDisparityTrack() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let made = try await Tool.run(root.appendingPathComponent("Fixtures/make-fixtures.sh").path, [scratch.url.path, "cinematic.mov"])
        try #require(made.status == 0, "\(made.stderr)")
        let run = try await Reel.run(["thumbnail", "cinematic.mov", "--at", "1.5", "--stream", "2", "-o", "disparity.png", "--json"],
                                     in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.jsonObject()["width"] as? Int == 320)
        // The disc's centre is at x=140 at 1.5 s: bright at 140, dark at 40 and 240.
        let disc = try ImageLuma.range(scratch.path("disparity.png"), x: 130, y: 85, width: 20, height: 10)
        let ground = try ImageLuma.range(scratch.path("disparity.png"), x: 20, y: 85, width: 40, height: 10)
        #expect(disc.darkest > 180 && ground.brightest < 70, "disc \(disc), ground \(ground)")
        let data = try await Reel.run(["thumbnail", "cinematic.mov", "--stream", "3", "-o", "data.png"], in: scratch.url)
        #expect(data.status == 1 && data.stderr.contains("stream 3 is not a video stream") && data.stderr.contains("#0, #2"), "\(data.stderr)")
        let cut = try await Reel.run(["compress", "cinematic.mov", "--copy", "--start", "1", "--end", "3", "-o", "cut.mov", "-q"],
                                     in: scratch.url)
        #expect(cut.status == 0, "\(cut.stderr)")
        let again = try await Reel.run(["thumbnail", "cut.mov", "--at", "0.5", "--stream", "2", "-o", "cut.png"], in: scratch.url)
        #expect(again.status == 0, "\(again.stderr)")
        let moved = try ImageLuma.range(scratch.path("cut.png"), x: 130, y: 85, width: 20, height: 10)
        #expect(moved.darkest > 180, "the cut's disparity at 0.5 s is the source's at 1.5 s: \(moved)")
    }
}
