import Foundation
import Testing

/// `--aspect` and `--fill` on the command line: the shape on every encoding command, the path
/// in a dry run's JSON, and the mistakes a person makes with them.
@Suite(.timeLimit(.minutes(5))) struct AspectTests {
    /// Width and height of the first video stream.
    static func size(_ url: URL) async throws -> (Int, Int) {
        let probe = try await Tool.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                             "stream=width,height", "-of", "csv=p=0", url.path])
        let sides = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        return (sides.first ?? 0, sides.last ?? 0)
    }

    @Test func everyEncodingCommandReframes() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let compress = try await Reel.run(["compress", "clip.mp4", "--aspect", "1:1", "-o", "square.mp4", "-q"], in: scratch.url)
        #expect(compress.status == 0, "\(compress.stderr)")
        let (width, height) = try await Self.size(scratch.path("square.mp4"))
        #expect(width == height && width > 0, "\(width)x\(height)")
        let split = try await Reel.run(["split", "clip.mp4", "--shots", "--aspect", "9:16", "-o", "parts", "-q"],
                                       in: scratch.url)
        #expect(split.status == 0, "\(split.stderr)")
        let parts = try FileManager.default.contentsOfDirectory(at: scratch.path("parts"), includingPropertiesForKeys: nil)
        #expect(!parts.isEmpty)
        for part in parts {
            let (width, height) = try await Self.size(part)
            let ratio = Double(width) / Double(max(height, 1))
            #expect(abs(ratio - 9.0 / 16) < 0.02, "\(part.lastPathComponent): \(width)x\(height)")
        }
        let dry = try await Reel.run(["compress", "clip.mp4", "--aspect", "9:16", "--dry-run", "--json"], in: scratch.url)
        let json = try #require(JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
        let path = try #require(json["cameraPath"] as? [String: Any], "\(dry.stdout)")
        #expect(path["aspect"] as? String == "9:16")
        #expect((path["shots"] as? [Any])?.isEmpty == false)
    }

    @Test func mistakesAreNamed() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let badShape = try await Reel.run(["compress", "clip.mp4", "--aspect", "tall"], in: scratch.url)
        #expect(badShape.status == 2 && badShape.stderr.contains("9:16"), "\(badShape.stderr)")
        let fillAlone = try await Reel.run(["compress", "clip.mp4", "--fill", "blur"], in: scratch.url)
        #expect(fillAlone.status == 2 && fillAlone.stderr.contains("--aspect"), "\(fillAlone.stderr)")
        let copied = try await Reel.run(["compress", "clip.mp4", "--aspect", "9:16", "--copy"], in: scratch.url)
        #expect(copied.status != 0 && copied.stderr.contains("re-encoding"), "\(copied.stderr)")
        let person = try await Reel.run(["highlights", "clip.mp4", "--person", "abc"], in: scratch.url)
        #expect(person.status == 2 && person.stderr.contains("--faces"), "\(person.stderr)")
    }
}
