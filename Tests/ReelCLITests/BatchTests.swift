import Foundation
import Testing

/// Batches: bounded concurrency, failures that do not stop the rest, resuming, sharding.
@Suite(.timeLimit(.minutes(5))) struct BatchTests {
    @Test func batchKeepsGoingAndResumes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.silent, to: scratch.url, as: "clips/a.mp4")
        try TestClips.copy(.silent, to: scratch.url, as: "clips/b.mov")
        try scratch.write("not a video\n", to: "clips/c.mp4")
        try scratch.write("notes\n", to: "clips/notes.txt")
        let arguments = ["compress", "clips", "--output-dir", "out", "--jobs", "2",
                         "--speed", "ultrafast", "--max-dimension", "160"]
        let first = try await Reel.run(arguments + ["--json"], in: scratch.url)
        #expect(first.status == 1, "one file failed: \(first.stderr)")
        #expect(first.stderr.contains("reel: clips/c.mp4: cannot read as media"))
        let object = try first.jsonObject()
        #expect(Set(object.keys) == ["files", "totals", "processingTime"])
        let totals = try #require(object["totals"] as? [String: Int])
        #expect(totals["inputs"] == 3 && totals["compressed"] == 2 && totals["failed"] == 1)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["status"] as? String } == ["compressed", "compressed", "failed"])
        #expect(try scratch.names(in: "out") == ["a-compressed.mp4", "b-compressed.mp4"])
        let written = try modificationDates(scratch, "out")

        let second = try await Reel.run(arguments, in: scratch.url)
        #expect(second.status == 1)
        let rows = second.stdout.split(separator: "\n")
        #expect(rows.first?.hasPrefix("STATUS") == true)
        #expect(rows.filter { $0.hasPrefix("skipped ") }.count == 2, "\(second.stdout)")
        #expect(rows.filter { $0.hasPrefix("failed ") }.count == 1)
        #expect(rows.last?.hasPrefix("3 files: 2 skipped, 1 failed") == true, "\(second.stdout)")
        #expect(try modificationDates(scratch, "out") == written, "skipped outputs are untouched")
    }

    /// An existing output is skipped only when it is complete: not one whose media data was cut
    /// short (its header still promises every frame), nor one far shorter than these settings
    /// make. Those are refused with the reason, and left untouched.
    @Test func truncatedOrShortOutputsAreNotSkipped() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "clips/long.mp4")
        let arguments = ["compress", "clips", "--output-dir", "out", "--speed", "ultrafast", "--max-dimension", "160"]
        #expect(try await Reel.run(arguments + ["--quiet"], in: scratch.url).status == 0)
        let output = scratch.path("out/long-compressed.mp4")
        let whole = try Data(contentsOf: output)
        #expect(try await Reel.run(arguments, in: scratch.url).stdout.contains("skipped"), "a complete output is skipped")

        try whole.prefix(whole.count * 6 / 10).write(to: output)
        let cut = try await Reel.run(arguments, in: scratch.url)
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("out/long-compressed.mp4: exists but is cut short"), "\(cut.stderr)")
        #expect(try Data(contentsOf: output).count == whole.count * 6 / 10, "left untouched")

        try FileManager.default.removeItem(at: output)
        try TestClips.copy(.silent, to: scratch.url, as: "out/long-compressed.mp4")
        let short = try await Reel.run(arguments, in: scratch.url)
        #expect(short.status == 1)
        #expect(short.stderr.contains("lasts 1.0 s where these settings make 8.0 s"), "\(short.stderr)")

        #expect(try await Reel.run(arguments + ["--overwrite", "--quiet"], in: scratch.url).status == 0)
        #expect(try Data(contentsOf: output).count > whole.count / 2)
    }

    @Test func outputsBesideTheInputsAreNotTakenAsInputs() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.silent, to: scratch.url, as: "clips/a.mp4")
        let arguments = ["compress", "clips/", "--speed", "ultrafast", "--json"]
        let first = try await Reel.run(arguments, in: scratch.url)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try await Reel.run(arguments, in: scratch.url)
        #expect(second.status == 0)
        let totals = try #require(try second.jsonObject()["totals"] as? [String: Int])
        #expect(totals["inputs"] == 1 && totals["skipped"] == 1)
        #expect(try scratch.names(in: "clips") == ["a-compressed.mp4", "a.mp4"])
    }

    @Test(arguments: [2, 3, 9])
    func shardsPartitionTheSortedInputs(count: Int) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let names = ["e.mp4", "a.mov", "g.MKV", "b.mp4", "f.webm", "c.mp4", "d.m4v"]
        // Real videos: a dry run plans each file as the run would (a fake one would fail).
        try scratch.write("notes\n", to: "clips/readme.txt")
        for name in names { try TestClips.copy(.video, to: scratch.path("clips"), as: name) }
        let all = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { scratch.path("clips/" + $0).path }
        var seen: [String] = []
        for index in 1...count {
            let run = try await Reel.run(
                ["compress", "clips", "--dry-run", "--json", "--shard", "\(index)/\(count)"],
                in: scratch.url)
            #expect(run.status == 0, "\(run.stderr)")
            let files = try #require(try run.jsonObject()["files"] as? [[String: Any]])
            let inputs = files.compactMap { $0["input"] as? String }
            #expect(files.allSatisfy { $0["status"] as? String == "planned" })
            #expect(inputs == stride(from: index - 1, to: all.count, by: count).map { all[$0] })
            seen += inputs
        }
        #expect(seen.sorted() == all.sorted(), "every input in exactly one shard")
        #expect(Set(seen).count == seen.count)
        #expect(try scratch.names() == ["clips"], "a dry run writes nothing")
    }

    /// The modification date of each file in `subdirectory`.
    private func modificationDates(_ scratch: Scratch, _ subdirectory: String) throws -> [Date] {
        try scratch.names(in: subdirectory).map { name in
            let attributes = try FileManager.default.attributesOfItem(
                atPath: scratch.path(subdirectory + "/" + name).path)
            return try #require(attributes[.modificationDate] as? Date)
        }
    }
}
