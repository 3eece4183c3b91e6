import Foundation
import Testing
@testable import ReelFaces
@testable import ReelKit
@testable import ReelSupport

/// FaceGroupAnalyzer on real photos of real people (and copies flipped, scaled, combined):
/// detection, grouping, stable ids, identify, deletion, bad files, cancellation.
@Suite(.timeLimit(.minutes(5))) struct FaceGroupAnalyzerTests {
    @Test func findsEveryFaceAndNoneOnACat() async throws {
        let directory = try Fixtures.scratchDirectory()
        let analyzer = try FaceGroupAnalyzer(workingDirectory: directory.appendingPathComponent("index"))
        let pair = try FaceFixtures.sideBySide("obama.jpg", "biden.jpg", as: "pair.jpg", in: directory)
        let assets = try ["obama.jpg", "biden.jpg", "astronaut.png", "chelsea.png"].map { try FaceFixtures.image(FaceFixtures.photo($0)) }
            + [FaceFixtures.image(pair)]
        let found = try await FaceFixtures.insert(assets, into: analyzer)
        #expect(found.mapValues(\.count) == ["obama.jpg": 1, "biden.jpg": 1, "astronaut.png": 1, "chelsea.png": 0, "pair.jpg": 2])
        // obama.jpg is 910x1137 with the face at about (349, 142)-(618, 410).
        let face = try #require(found["obama.jpg"]?.first)
        #expect(abs(face.bounds.midX - 483.0 / 910) < 0.03 && abs(face.bounds.midY - 276.0 / 1137) < 0.03, "\(face.bounds)")
        #expect(face.bounds.width > 0.2 && face.bounds.width < 0.4)
        #expect(face.score > 0.5 && face.entityID == nil && face.time == nil)
        // Side by side, left to right: the pair's faces lie in its two halves.
        let halves = Set(try #require(found["pair.jpg"]).map { $0.bounds.midX < 0.5 })
        #expect(halves == [true, false])
        #expect(await analyzer.state == .stale)
    }

    @Test func groupsPeopleAndKeepsTheirIdsAcrossReopensAndAdditions() async throws {
        let directory = try Fixtures.scratchDirectory()
        let index = directory.appendingPathComponent("index")
        let flipped = try FaceFixtures.derived("obama.jpg", "hflip", as: "obama-flipped.jpg", in: directory)
        let small = try FaceFixtures.derived("biden.jpg", "scale=iw/3:-2", as: "biden-small.jpg", in: directory)
        let cropped = try FaceFixtures.derived("obama2.jpg", "crop=iw:ih/2:0:0", as: "obama2-top.jpg", in: directory)
        var first: [FaceEntityID: [Face]] = [:]
        do {
            let analyzer = try FaceGroupAnalyzer(workingDirectory: index)
            let photos = try ["obama.jpg", "obama2.jpg", "biden.jpg", "astronaut.png"].map { try FaceFixtures.image(FaceFixtures.photo($0)) }
            _ = try await FaceFixtures.insert(photos + [flipped, small].map(FaceFixtures.image), into: analyzer)
            try await analyzer.update()
            #expect(await analyzer.state == .ready)
            first = try await analyzer.allFacesByEntityID
            let sizes = first.values.map(\.count).sorted()
            #expect(sizes == [1, 2, 3], "Obama x3, Biden x2, the astronaut: \(first.mapValues { $0.map(\.assetID) })")
        }
        let obama = try #require(first.first { $0.value.contains { $0.assetID == "obama.jpg" } }?.key)
        let biden = try #require(first.first { $0.value.contains { $0.assetID == "biden.jpg" } }?.key)
        #expect(Set(first[obama]?.map(\.assetID) ?? []) == ["obama.jpg", "obama2.jpg", "obama-flipped.jpg"])
        #expect(Set(first[biden]?.map(\.assetID) ?? []) == ["biden.jpg", "biden-small.jpg"])

        // A later process sees the same groups, then adds photos of people it knows.
        let reopened = try FaceGroupAnalyzer(workingDirectory: index)
        #expect(await reopened.state == .ready)
        #expect(try await reopened.allFacesByEntityID.mapValues { Set($0.map(\.id)) } == first.mapValues { Set($0.map(\.id)) })
        let pair = try FaceFixtures.sideBySide("obama3.jpg", "biden.jpg", as: "pair.jpg", in: directory)
        _ = try await FaceFixtures.insert([FaceFixtures.image(pair), FaceFixtures.image(cropped)], into: reopened)
        #expect(await reopened.state == .stale)
        try await reopened.update()
        let second = try await reopened.allFacesByEntityID
        #expect(second.count == 3)
        #expect(Set(second[obama]?.map(\.assetID) ?? []) == ["obama.jpg", "obama2.jpg", "obama-flipped.jpg", "pair.jpg", "obama2-top.jpg"])
        #expect(Set(second[biden]?.map(\.assetID) ?? []) == ["biden.jpg", "biden-small.jpg", "pair.jpg"])
        #expect(try await reopened.fetchAssetIDs(for: biden) == ["biden-small.jpg", "biden.jpg", "pair.jpg"])
        #expect(try await reopened.fetchFaces(for: MediaIntelligenceAssetID("pair.jpg")).compactMap(\.entityID).sorted() == [obama, biden].sorted())

        // Inserting the same id again updates it: no duplicate faces.
        _ = try await FaceFixtures.insert([FaceFixtures.image(pair)], into: reopened)
        #expect(try await reopened.fetchFaces(for: MediaIntelligenceAssetID("pair.jpg")).count == 2)
        #expect(try await reopened.fetchAllAssetIDs().count == 8)
    }

    @Test func identifiesWithoutStoring() async throws {
        let directory = try Fixtures.scratchDirectory()
        let analyzer = try FaceGroupAnalyzer(workingDirectory: directory.appendingPathComponent("index"))
        _ = try await FaceFixtures.insert(try ["obama.jpg", "biden.jpg"].map { try FaceFixtures.image(FaceFixtures.photo($0)) }, into: analyzer)
        try await analyzer.update()
        let known = try await analyzer.allFacesByEntityID
        let obama = try #require(known.first { $0.value.contains { $0.assetID == "obama.jpg" } }?.key)
        let results = try await analyzer.identifyFaces(in: [
            FaceFixtures.image(try FaceFixtures.photo("obama3.jpg")), FaceFixtures.image(try FaceFixtures.photo("astronaut.png")),
        ])
        #expect(results.map(\.0) == ["obama3.jpg", "astronaut.png"])
        #expect(results[0].1.map(\.entityID) == [obama])
        #expect(results[1].1.map(\.entityID) == [nil], "a stranger matches nobody")
        #expect(try await analyzer.fetchAllAssetIDs() == ["biden.jpg", "obama.jpg"])
        #expect(await analyzer.state == .ready)
    }

    @Test func deletingAndPurgingLeaveNoTraceAndNothingElseGone() async throws {
        let directory = try Fixtures.scratchDirectory()
        let mine = directory.appendingPathComponent("app-notes.txt")
        try Data("the app's own file".utf8).write(to: mine)
        let analyzer = try FaceGroupAnalyzer(workingDirectory: directory)
        _ = try await FaceFixtures.insert(try ["obama.jpg", "biden.jpg"].map { try FaceFixtures.image(FaceFixtures.photo($0)) }, into: analyzer)
        try await analyzer.update()
        try await analyzer.deleteAssets(["obama.jpg"])
        #expect(await analyzer.state == .stale)
        #expect(try await analyzer.fetchFaces(for: MediaIntelligenceAssetID("obama.jpg")).isEmpty)
        #expect(try await analyzer.fetchAllAssetIDs() == ["biden.jpg"])
        try await analyzer.deleteAllAssets()
        #expect(try await analyzer.fetchAllAssetIDs().isEmpty)
        #expect(try await analyzer.allFacesByEntityID.isEmpty)
        try FaceGroupAnalyzer.purge(workingDirectory: directory)
        #expect(Fixtures.contents(of: directory) == ["app-notes.txt"])
    }

    @Test func badFilesAreTypedAndTheBatchGoesOn() async throws {
        let directory = try Fixtures.scratchDirectory()
        let text = directory.appendingPathComponent("notes.jpg")
        try Data("not a picture".utf8).write(to: text)
        let truncated = directory.appendingPathComponent("truncated.jpg")
        try Data(try Data(contentsOf: try FaceFixtures.photo("obama.jpg")).prefix(600)).write(to: truncated)
        let analyzer = try FaceGroupAnalyzer(workingDirectory: directory.appendingPathComponent("index"))
        var delivered: [MediaIntelligenceAssetID] = []
        do {
            let assets = [FaceFixtures.image(text), FaceFixtures.image(truncated), FaceFixtures.image(try FaceFixtures.photo("biden.jpg"))]
            for try await (id, _) in try await analyzer.insertOrUpdateAssets(assets) { delivered.append(id) }
            Issue.record("expected a FaceBatchError")
        } catch let error as FaceBatchError {
            #expect(error.failures.map(\.assetID) == ["notes.jpg", "truncated.jpg"])
            for failure in error.failures {
                #expect(failure.error.fileURL?.lastPathComponent == failure.assetID.rawValue, "\(failure.error)")
            }
        }
        #expect(delivered == ["biden.jpg"])
        #expect(try await analyzer.fetchAllAssetIDs() == ["biden.jpg"])
    }

    @Test func cancellingMidBatchKeepsWhatFinished() async throws {
        let directory = try Fixtures.scratchDirectory()
        let analyzer = try FaceGroupAnalyzer(workingDirectory: directory.appendingPathComponent("index"))
        let assets = try ["obama.jpg", "biden.jpg", "obama2.jpg", "obama3.jpg", "astronaut.png"].map { try FaceFixtures.image(FaceFixtures.photo($0)) }
        let consumer = Task {
            var seen: [MediaIntelligenceAssetID] = []
            for try await (id, _) in try await analyzer.insertOrUpdateAssets(assets) {
                seen.append(id)
                if seen.count == 1 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return seen
        }
        let seen = try await consumer.value
        // The stream may still hand over an asset the producer finished before it saw the
        // cancel (AsyncThrowingStream delivers what it buffered), so only the order and the
        // stop are certain: the first asset, every delivered one kept, the batch not finished.
        #expect(seen.first == "obama.jpg" && seen.count < assets.count, "\(seen)")
        let stored = try await analyzer.fetchAllAssetIDs()
        #expect(Set(seen).isSubset(of: Set(stored)), "\(seen) not all in \(stored)")
        // fetchAllAssetIDs sorts by id: with biden.jpg stored too, obama.jpg is not first.
        #expect(stored.contains("obama.jpg") && stored.count < assets.count, "\(stored)")
    }

    @Test func aCrashDuringUpdateLeavesTheFacesAndAStaleState() async throws {
        let directory = try Fixtures.scratchDirectory()
        do {
            let analyzer = try FaceGroupAnalyzer(workingDirectory: directory)
            _ = try await FaceFixtures.insert([FaceFixtures.image(try FaceFixtures.photo("biden.jpg"))], into: analyzer)
        }
        // What a process killed inside update() leaves: the state it set before grouping.
        try FaceStore(directory: directory).setState(.updating)
        let reopened = try FaceGroupAnalyzer(workingDirectory: directory)
        #expect(await reopened.state == .stale)
        #expect(try await reopened.fetchFaces(for: MediaIntelligenceAssetID("biden.jpg")).count == 1)
    }

    @Test func missingModelsAreATypedErrorThatSaysWhatToDo() throws {
        let empty = try Fixtures.scratchDirectory()
        #expect(throws: ReelError.self) { try FaceModels.locate(explicit: empty, environment: ["HOME": empty.path]) }
        do {
            _ = try FaceModels.locate(explicit: empty, environment: ["HOME": empty.path])
        } catch {
            guard case .faceModelsMissing(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains(empty.path) && reason.contains("make models"))
        }
    }

    @Test func findsPeopleInAVideoWithTheTimesTheyAppear() async throws {
        let directory = try Fixtures.scratchDirectory()
        let video = try FaceFixtures.slideshow(["obama.jpg", "biden.jpg", "obama2.jpg"], seconds: 4, as: "talk.mp4", in: directory)
        let analyzer = try FaceGroupAnalyzer(workingDirectory: directory.appendingPathComponent("index"))
        var found: [Face] = []
        for try await (_, faces) in try await analyzer.insertOrUpdateAssets([MediaIntelligenceVideoAsset(url: video)]) { found += faces }
        // A sample every 0.75 s and just after the cuts at 4 and 8 s, one face each.
        let times = found.compactMap { $0.time?.seconds }
        #expect(found.count == times.count && times.count >= 16 && times.count <= 20, "\(times)")
        #expect(times.contains { $0 > 4 && $0 < 4.2 } && times.contains { $0 > 8 && $0 < 8.2 }, "\(times)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 > 0.2 && $1 - $0 < 0.8 }, "\(times)")
        try await analyzer.update()
        let people = try await analyzer.allFacesByEntityID
        #expect(people.count == 2)
        let obama = try #require(people.first { $0.value.contains { ($0.time?.seconds ?? 99) < 1 } }?.key)
        let ranges = try await analyzer.appearances(of: obama)[MediaIntelligenceAssetID(video.path)] ?? []
        #expect(ranges.count == 2, "\(ranges)")
        #expect(ranges.first.map { $0.start.seconds < 0.1 && abs($0.end.seconds - 4.5) < 0.3 } ?? false, "\(ranges)")
        #expect(ranges.last.map { abs($0.start.seconds - 8.1) < 0.1 && $0.end.seconds > 11.9 } ?? false, "\(ranges)")
    }
}
