import Foundation
import Testing
@testable import ReelFaces
@testable import ReelKit

/// A person keeps their entity id while their faces stay: adding the same video or photo again,
/// or an unrelated one, and regrouping changes no id.
@Suite(.timeLimit(.minutes(5))) struct FaceEntityStabilityTests {
    @Test func idsSurviveAddingTheSameAssetsAgainAndAnotherOne() async throws {
        let directory = try Fixtures.scratchDirectory()
        // Obama and Biden are only in the video, the astronaut only in a photo.
        let video = try FaceFixtures.slideshow(["obama.jpg", "biden.jpg", "obama2.jpg"], seconds: 3, as: "talk.mp4", in: directory)
        let analyzer = try FaceGroupAnalyzer(workingDirectory: directory.appendingPathComponent("index"))
        let photo = FaceFixtures.image(try FaceFixtures.photo("astronaut.png"))
        func add() async throws {
            for try await _ in try await analyzer.insertOrUpdateAssets([MediaIntelligenceVideoAsset(url: video)]) {}
            _ = try await FaceFixtures.insert([photo], into: analyzer)
        }
        /// Each asset's people, by when (or where) they were seen.
        func people() async throws -> [String: Set<FaceEntityID>] {
            var result: [String: Set<FaceEntityID>] = [:]
            for (entity, faces) in try await analyzer.allFacesByEntityID {
                for face in faces {
                    let key = face.time.map { "video \(Int(($0.seconds + 0.02) / 3))" } ?? face.assetID.rawValue
                    result[key, default: []].insert(entity)
                }
            }
            return result
        }
        try await add()
        try await analyzer.update()
        let first = try await people()
        #expect(first.keys.sorted() == ["astronaut.png", "video 0", "video 1", "video 2"], "\(first)")
        #expect(first.values.allSatisfy { $0.count == 1 } && first["video 0"] == first["video 2"] && first["video 0"] != first["video 1"])

        try await add()
        #expect(await analyzer.state == .stale)
        try await analyzer.update()
        #expect(try await people() == first, "adding the same video and photo again")

        _ = try await FaceFixtures.insert([FaceFixtures.image(try FaceFixtures.photo("obama3.jpg"))], into: analyzer)
        try await analyzer.update()
        var third = try await people()
        #expect(third.removeValue(forKey: "obama3.jpg") == first["video 0"], "Obama's new photo joins him")
        #expect(third == first, "adding another photo")
    }

    @Test func aReinsertedFaceCarriesTheEntityOfTheFaceItReplaces() {
        func stored(_ x: Double, time: Double?, descriptor: [Float], entity: String?) -> StoredFace {
            StoredFace(face: Face(id: Face.ID(UUID().uuidString), assetID: "a", bounds: CGRect(x: x, y: 0.2, width: 0.2, height: 0.3),
                                  entityID: entity.map(FaceEntityID.init), score: 1, time: time.map { MediaTime(seconds: $0, timescale: 1000) }),
                       descriptor: descriptor, ordinal: 0)
        }
        let old = [stored(0.1, time: 1, descriptor: [0, 0], entity: "left"), stored(0.6, time: 1, descriptor: [1, 0], entity: "right")]
        let new = [
            stored(0.62, time: 1, descriptor: [0.9, 0], entity: nil),  // same time and place
            stored(0.3, time: 7, descriptor: [0.1, 0], entity: nil),   // elsewhere, nearest descriptor
            stored(0.3, time: 7, descriptor: [5, 5], entity: nil),     // nobody known
        ]
        #expect(FaceGrouping.carriedEntities(new: new, old: old) == [FaceEntityID("right"), FaceEntityID("left"), nil])
    }
}
