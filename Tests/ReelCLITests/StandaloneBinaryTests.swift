import Foundation
import Testing

/// The presets are compiled in: a `reel` copied alone to another directory still works.
@Suite(.timeLimit(.minutes(5))) struct StandaloneBinaryTests {
    @Test func binaryCopiedAloneKeepsItsPresets() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let binary = try #require(Reel.binary)
        let copy = scratch.path("bin/reel")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: binary, to: copy)
        #expect(try FileManager.default.contentsOfDirectory(atPath: copy.deletingLastPathComponent().path) == ["reel"])
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "--preset", "messaging", "--json", "--quiet"],
                               in: scratch.url, binary: copy)
        #expect(run.status == 0, "\(run.stderr)")
        let presets = try await Reel.run(["presets", "--json"], in: scratch.url, binary: copy)
        #expect(presets.status == 0)
        let names = (try presets.jsonObject()["presets"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names.map(Set.init) == ["low", "medium", "high", "social", "messaging", "archive", "web"])
    }
}
