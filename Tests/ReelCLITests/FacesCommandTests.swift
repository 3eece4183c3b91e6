import Foundation
import Testing

/// `reel faces` and its subcommands end to end on real photos (fetched by
/// Fixtures/fetch-face-photos.sh).
@Suite(.timeLimit(.minutes(5))) struct FacesCommandTests {
    static func photo(_ name: String) throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent(".build/fixture-cache/faces")
        let process = Process()
        process.executableURL = root.appendingPathComponent("Fixtures/fetch-face-photos.sh")
        process.arguments = [directory.path]
        try process.run()
        let exited = process.waitForExit(timeout: 300)
        try #require(exited && process.terminationStatus == 0)
        return directory.appendingPathComponent(name)
    }

    @Test func addUpdatePeopleIdentifyRemovePurge() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let photos = scratch.path("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["obama.jpg", "obama2.jpg", "biden.jpg"] {
            try FileManager.default.copyItem(at: try Self.photo(name), to: photos.appendingPathComponent(name))
        }
        try scratch.write("not a picture", to: "photos/notes.jpg")

        var run = try await Reel.run(["faces", "add", "photos", "--index", "idx", "--update", "--json"], in: scratch.url)
        #expect(run.status == 1, "one file failed: \(run.stderr)")
        var object = try run.jsonObject()
        #expect((object["added"] as? [Any])?.count == 3)
        #expect((object["failed"] as? [[String: Any]])?.map { $0["file"] as? String } == ["photos/notes.jpg"])
        #expect(object["state"] as? String == "ready")
        #expect(run.stderr.contains("photos/notes.jpg"))

        run = try await Reel.run(["faces", "people", "--index", "idx", "--sheet", "people.jpg", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        object = try run.jsonObject()
        let people = try #require(object["people"] as? [[String: Any]])
        #expect(people.map { $0["faces"] as? Int } == [2, 1])
        #expect(FileManager.default.fileExists(atPath: scratch.path("people.jpg").path))

        run = try await Reel.run(["faces", "identify", try Self.photo("obama3.jpg").path, "--index", "idx", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let faces = try #require((try run.jsonObject()["results"] as? [[String: Any]])?.first?["faces"] as? [[String: Any]])
        #expect(faces.map { $0["entity"] as? String } == [people[0]["entity"] as? String])

        run = try await Reel.run(["faces", "remove", "photos/obama2.jpg", "--index", "idx"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        run = try await Reel.run(["faces", "update", "--index", "idx", "--json"], in: scratch.url)
        #expect(try run.jsonObject()["faces"] as? Int == 2)

        run = try await Reel.run(["faces", "purge", "--index", "idx"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try scratch.names(in: "idx").isEmpty)
        // Reading an index that is not there (purged, or a mistyped path) is an error, and
        // creates nothing.
        for action in ["people", "update"] {
            let missing = try await Reel.run(["faces", action, "--index", "idx2"], in: scratch.url)
            #expect(missing.status == 1 && missing.stderr.contains("idx2: face index failed: no face index here yet"), "\(missing.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("idx2").path))
        let dance = try await Reel.run(["faces", "dance", "--index", "idx"], in: scratch.url)
        #expect(dance.status == 2 && dance.stderr.contains("unknown subcommand 'dance' for 'faces'"), "\(dance.stderr)")
    }
}
