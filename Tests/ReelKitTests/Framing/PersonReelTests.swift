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
            // Constant quality without a VBV cap: x264's VBV under frame threads encodes
            // differently run to run, and at ultrafast's default quality some frames came out
            // too blocky for a face to be found in them.
            config.useExplicitBitrate = false
            config.videoQuality = 0.85
            config.trim = .highlights(HighlightReelOptions(minimumLevel: 0, person: ReelPerson(faceIndex: indexDirectory, entityID: person)))
            let result = try await VideoCompressor().compressVideo(source, config: config)
            let output = result.url
            let duration = try MediaInfo.probe(output).duration
            // Three pictures through the reel, each showing that person alone (a failure says
            // what each showed, and how long the reel is).
            var shown: [String] = []
            for time in ["1.0", "1.5", "2.5"] {
                let still = directory.appendingPathComponent("\(person)-\(time).png")
                try await offPool { try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-ss", time, "-i", output.path, "-frames:v", "1", still.path]) }
                let seen = try await index.identifyFaces(in: [FaceFixtures.image(still)])
                let faces = try #require(seen.first?.1)
                shown.append("\(time) s: \(faces.map(\.entityID))")
                #expect(faces.map(\.entityID) == [person], "the reel of \(person) (\(duration) s) shows \(shown)")
            }
        }
        // The video was added to the index on the first reel; the astronaut is not in it.
        var config = Harness.fastConfig(in: directory)
        config.trim = .highlights(HighlightReelOptions(minimumLevel: 0, person: ReelPerson(faceIndex: indexDirectory, entityID: astronaut)))
        let error = await Harness.reelError { _ = try await VideoCompressor().compressVideo(source, config: config) }
        #expect(error.map { "\($0)" }?.hasSuffix("pair.mp4: nothing to keep: \(astronaut) never appears in it (no face of theirs is found)") == true, "\(String(describing: error))")
        // A face index that is not there (a mistyped path) is an error, and none is made there.
        let mistyped = directory.appendingPathComponent("indx")
        config.trim = .highlights(HighlightReelOptions(minimumLevel: 0, person: ReelPerson(faceIndex: mistyped, entityID: obama)))
        let missing = await Harness.reelError { _ = try await VideoCompressor().compressVideo(source, config: config) }
        guard case .faceIndexFailed(let place, let reason)? = missing else {
            Issue.record("expected faceIndexFailed, got \(String(describing: missing))")
            return
        }
        #expect(place == mistyped && reason.hasPrefix("no face index here"), "\(reason)")
        #expect(!FileManager.default.fileExists(atPath: mistyped.path))
    }

    /// A person's reel ranks their moments against each other: the level drops (never rises)
    /// until their strongest moments fill half their screen time; level 0 never counts.
    @Test func aPersonsLevelIsTheirOwnStrongestHalf() {
        func level(_ parts: [(Double, Double, Float)]) -> Float {
            HighlightEditorTests.analysis(parts.map { ($0.0, $0.1, $0.2, 50) }).personLevel(usual: 6)
        }
        #expect(level([(4.09, 6.42, 8.42), (8.34, 11.26, 2.9)]) == 2.9)
        #expect(level([(0, 2, 0.39), (2, 4, 0.1), (6.4, 8.3, 8.78)]) == 0.39)
        #expect(level([(0, 4, 7), (4, 8, 6.5), (8, 9, 1)]) == 6, "their strong moments already fill half")
        #expect(level([(0, 4, 0), (4, 5, 0)]) == 6)
    }

    /// Megamind.avi (real footage): the man's close-up (8.34-11.26 s, silent, then he speaks) is
    /// level 2.9 against the whole clip's dialogue. His reel used to stop at 8.34 s without it.
    @Test func theMansCloseUpIsInHisReel() async throws {
        let directory = try Fixtures.scratchDirectory()
        let video = try FaceFixtures.footage("Megamind.avi")
        let indexDirectory = directory.appendingPathComponent("index")
        let index = try FaceGroupAnalyzer(workingDirectory: indexDirectory)
        for try await _ in try await index.insertOrUpdateAssets([MediaIntelligenceVideoAsset(url: video)]) {}
        try await index.update()
        let faces = try await index.fetchFaces(for: MediaIntelligenceAssetID(video.path))
        let man = try #require(faces.first { ($0.time?.seconds ?? 0) > 9 }?.entityID)
        var config = Harness.fastConfig(in: directory)
        config.trim = .highlights(HighlightReelOptions(person: ReelPerson(faceIndex: indexDirectory, entityID: man)))
        let plan = try await VideoCompressor().plan(video, config: config)
        let kept = plan.keptRanges.map { $0.start.seconds...$0.end.seconds }
        #expect(kept.contains { $0.contains(10) }, "\(kept)")
        #expect(kept.contains { $0.contains(5) }, "his shot over her shoulder: \(kept)")
    }
}
