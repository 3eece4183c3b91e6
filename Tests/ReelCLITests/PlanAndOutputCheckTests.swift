import Foundation
import ReelKit
import Testing

/// What the command line gets from the library's plan: dry runs that show it, outputs checked
/// before any work, the whole time of a reel with its parts.
@Suite(.timeLimit(.minutes(5))) struct PlanAndOutputCheckTests {
    /// A dry run shows what the run would keep, from the library's plan, for any trim.
    @Test func aDryRunShowsThePlannedRanges() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "--ranges", "4-5.5,1-2", "--dry-run", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.jsonObject()
        #expect(json["status"] as? String == "planned")
        #expect(json["plannedRanges"] as? [[String: Double]] == [["start": 4, "end": 5.5], ["start": 1, "end": 2]])
        #expect(!FileManager.default.fileExists(atPath: scratch.path("clip-compressed.mp4").path))
    }

    /// An existing output does not stop a dry run: the plan shows, with a note that the run
    /// needs --overwrite (it refused with "already exists" and showed nothing).
    @Test func aDryRunOverAnExistingOutputShowsThePlanAndSaysSo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "clip.mp4")
        try Data("old".utf8).write(to: scratch.path("out.mp4"))
        let text = try await Reel.run(["compress", "clip.mp4", "--start", "1", "--end", "3", "-o", "out.mp4", "--dry-run"], in: scratch.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("would compress clip.mp4 -> out.mp4 keeping 0:01-0:03"), "\(text.stdout)")
        #expect(text.stdout.contains("out.mp4: already exists; the run needs --overwrite"), "\(text.stdout)")
        let json = try await Reel.run(["compress", "clip.mp4", "-o", "out.mp4", "--dry-run", "--json"], in: scratch.url)
        #expect(try json.jsonObject()["note"] as? String == "out.mp4: already exists; the run needs --overwrite to replace it")
        #expect(try String(contentsOf: scratch.path("out.mp4"), encoding: .utf8) == "old")
        let real = try await Reel.run(["compress", "clip.mp4", "-o", "out.mp4", "--quiet"], in: scratch.url)
        #expect(real.status == 1 && real.stderr.contains("out.mp4: already exists; pass --overwrite"), "\(real.stderr)")
    }

    /// `reel highlights` reports the whole run, its analysis included (it printed the encode's
    /// 6.6 s of an 18.5 s run), and its parts.
    @Test func aReelsTimeIsTheWholeRunWithItsParts() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let json = try await Reel.run(["highlights", "story.mp4", "--max-duration", "6", "--speed", "ultrafast", "--json", "--quiet"],
                                in: scratch.url)
        #expect(json.status == 0, "\(json.stderr)")
        let result = try #require(try json.jsonObject()["result"] as? [String: Any])
        let total = try #require(result["processingTime"] as? Double)
        let planning = try #require(result["planningTime"] as? Double)
        let encoding = try #require(result["encodingTime"] as? Double)
        #expect(planning > 0 && encoding > 0 && abs(planning + encoding - total) < 1e-6, "\(result)")
        let text = try await Reel.run(["highlights", "story.mp4", "--max-duration", "6", "--speed", "ultrafast", "--overwrite"],
                                in: scratch.url)
        let time = try #require(text.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("time") })
        #expect(time.contains(": analysis ") && time.contains(", encoding "), "\(time)")
    }

    /// Outputs that cannot be written fail at once, with the one-line message, before the
    /// analysis or the encode (the report of a 42 s encode failed after it, with a raw
    /// NSCocoaErrorDomain error and the video written).
    @Test func unwritableOutputsFailBeforeAnyWork() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let cases: [([String], String)] = [
            (["report", "story.mp4", "-o", "/proc/reel-r.html"], "/proc/reel-r.html: "),
            (["highlights", "story.mp4", "-o", "/proc/reel-h.mp4", "--quiet"], "/proc/reel-h.mp4: "),
            (["compress", "story.mp4", "-o", "out.mp4", "--report", "/proc/reel-rep.html", "--quiet"], "/proc/reel-rep.html: "),
            (["analyze", "story.mp4", "--report", "/proc/reel-a.html", "--quiet"], "/proc/reel-a.html: "),
            (["split", "story.mp4", "--shots", "-o", "/proc/reel-pieces", "--quiet"], "/proc/reel-pieces: "),
            (["thumbnail", "story.mp4", "-o", "/proc/reel-t.jpg", "--quiet"], "/proc/reel-t.jpg: "),
        ]
        for (arguments, prefix) in cases {
            let run = try await Reel.run(arguments, in: scratch.url)
            #expect(run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("reel: " + prefix) && run.stderr.contains("is not writable"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("NSCocoaErrorDomain") && run.stdout.isEmpty, "\(arguments): \(run.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.mp4").path), "the video was encoded before the report failed")
    }

    /// Level 0 is a level (every part may be picked): it was refused as not positive.
    @Test func minimumLevelZeroIsAccepted() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let run = try await Reel.run(["highlights", "story.mp4", "--min-level", "0", "--dry-run", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!(try #require(try run.jsonObject()["plannedRanges"] as? [[String: Double]])).isEmpty)
    }

    /// A clip with no sound: the target-size refusal names only the container.
    @Test func aTargetSizeOfAClipWithoutSoundNamesOnlyTheContainer() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.silent, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "--target-size", "1k", "--no-audio", "--quiet"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("the container alone takes") && !run.stderr.contains("audio"), "\(run.stderr)")
    }

    /// `--sheet 12 --from highlights` of a video with fewer highlights says why it has fewer tiles.
    @Test func aShortHighlightSheetSaysWhy() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try await AnalyzeTests.story(in: scratch)
        let run = try await Reel.run(["thumbnail", "story.mp4", "--sheet", "12", "--from", "highlights", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let tiles = try #require(try run.jsonObject()["times"] as? [Double]).count
        #expect(tiles < 12)
        #expect(run.stderr.contains("12 frames asked for; the video has \(tiles) highlight"), "\(run.stderr)")
        #expect((try run.jsonObject()["shortfall"] as? String)?.contains("12 frames asked for") == true)
    }
}
