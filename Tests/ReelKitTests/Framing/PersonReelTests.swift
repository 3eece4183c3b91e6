import Foundation
import Testing
@testable import ReelFaces
@testable import ReelKit
@testable import ReelMedia

/// A highlight reel of one person from a face index, on a clip of two real people: each
/// person's reframed reel shows that person, and a person the video never shows is an error.
@Suite(.timeLimit(.minutes(5))) struct PersonReelTests {
    /// A 4 s clip with Obama's head on the left and Biden's on the right.
    private static func pair(in directory: URL) throws -> URL {
        let output = directory.appendingPathComponent("pair.mp4")
        try Fixtures.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x304050:s=1280x720:r=25:d=4",
            "-loop", "1", "-framerate", "25", "-i", try FaceFixtures.photo("obama.jpg").path,
            "-loop", "1", "-framerate", "25", "-i", try FaceFixtures.photo("biden.jpg").path,
            "-filter_complex", "[1]crop=iw*0.44:iw*0.44:iw*0.28:ih*0.03,scale=340:340[a];"
                + "[2]crop=iw*0.52:iw*0.52:iw*0.32:ih*0.035,scale=340:340[b];"
                + "[0][a]overlay=60:190:shortest=1[x];[x][b]overlay=880:190:shortest=1,format=yuv420p",
            "-t", "4", "-c:v", "libx264", "-preset", "ultrafast", "-threads", "2", output.path,
        ])
        return output
    }

    @Test func eachPersonsReelFramesThatPerson() async throws {
        let directory = try Fixtures.scratchDirectory()
        let indexDirectory = directory.appendingPathComponent("index")
        let index = try FaceGroupAnalyzer(workingDirectory: indexDirectory)
        let photos = try ["obama.jpg", "obama2.jpg", "biden.jpg", "astronaut.png"].map { FaceFixtures.image(try FaceFixtures.photo($0)) }
        let found = try await FaceFixtures.insert(photos, into: index)
        try await index.update()
        func entity(_ photo: String) async throws -> FaceEntityID {
            let id = MediaIntelligenceAssetID(try FaceFixtures.photo(photo).lastPathComponent)
            let faces = try await index.fetchFaces(for: id)
            let entity = faces.first?.entityID
            return try #require(entity, "\(photo): \(found.count) photos indexed")
        }
        let obama = try await entity("obama.jpg"), biden = try await entity("biden.jpg"), astronaut = try await entity("astronaut.png")
        #expect(obama != biden)
        let source = try await offPool { try Self.pair(in: directory) }
        for person in [obama, biden] {
            var config = Harness.fastConfig(in: directory)
            config.outputURL = directory.appendingPathComponent("\(person).mp4")
            config.reframing = Reframing(aspect: .vertical)
            config.trim = .highlights(HighlightReelOptions(minimumLevel: 0, person: ReelPerson(faceIndex: indexDirectory, entityID: person)))
            let result = try await VideoCompressor().compressVideo(source, config: config)
            let still = directory.appendingPathComponent("\(person).png")
            let output = result.url
            try await offPool { try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-ss", "1.5", "-i", output.path, "-frames:v", "1", still.path]) }
            let seen = try await index.identifyFaces(in: [FaceFixtures.image(still)])
            let faces = try #require(seen.first?.1)
            #expect(faces.map(\.entityID) == [person], "the reel of \(person) shows \(faces.map(\.entityID))")
        }
        // The video was added to the index on the first reel; the astronaut is not in it.
        var config = Harness.fastConfig(in: directory)
        config.trim = .highlights(HighlightReelOptions(minimumLevel: 0, person: ReelPerson(faceIndex: indexDirectory, entityID: astronaut)))
        let error = await Harness.reelError { _ = try await VideoCompressor().compressVideo(source, config: config) }
        #expect(error.map { "\($0)" }?.contains("never appears in pair.mp4") == true, "\(String(describing: error))")
    }
}
