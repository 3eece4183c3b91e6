import Foundation
import Testing
@testable import ReelCompression

/// Tags a recording carries (tagged.mp4: title, creation time, location, a French audio track,
/// camera handler names) survive compression and lossless copies; `keepsMetadata = false`
/// (`--strip-metadata`) writes none of them.
@Suite(.timeLimit(.minutes(5))) struct MetadataTests {
    struct Tags {
        var container: [String: String]
        var streams: [[String: String]]
    }

    static func tags(_ url: URL) throws -> Tags {
        let text = try Fixtures.run("/usr/bin/ffprobe", [
            "-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", url.path,
        ])
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        let format = (object["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        let streams = (object["streams"] as? [[String: Any]] ?? []).map { $0["tags"] as? [String: String] ?? [:] }
        return Tags(container: format, streams: streams)
    }

    @Test(arguments: [false, true])
    func tagsAreKept(copying: Bool) async throws {
        let (result, _, _) = try await Harness.compress("tagged.mp4") { $0.streamCopy = copying }
        let tags = try Self.tags(result.url)
        #expect(tags.container["title"] == "Holiday")
        #expect(tags.container["creation_time"]?.hasPrefix("2024-05-01T10:00:00") == true)
        #expect(tags.container["location"] == "+48.8584+002.2945/")
        #expect(tags.streams.map { $0["handler_name"] } == ["CameraVideo", "CameraSound"])
        #expect(tags.streams.last?["language"] == "fra")
    }

    @Test func strippingLeavesNoneOfThem() async throws {
        let (result, _, _) = try await Harness.compress("tagged.mp4") { $0.keepsMetadata = false }
        let tags = try Self.tags(result.url)
        for key in ["title", "creation_time", "location"] { #expect(tags.container[key] == nil, "\(key)") }
        #expect(!tags.streams.contains { $0["handler_name"]?.hasPrefix("Camera") == true || $0["language"] == "fra" })
    }
}
