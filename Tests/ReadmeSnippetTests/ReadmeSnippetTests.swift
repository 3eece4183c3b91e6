import Foundation
import ReelKit
import Testing

/// README.md's Swift snippets compile (ReadmeSnippets.swift) and stay the same as the README's.
@Suite struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every ```swift block of the README but the Package.swift one appears, line for line
    /// (imports aside), in ReadmeSnippets.swift.
    @Test func theSnippetsAreTheReadmes() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let compiled = try String(contentsOf: Self.root.appendingPathComponent("Tests/ReadmeSnippetTests/ReadmeSnippets.swift"),
                                  encoding: .utf8)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
            .filter { !$0.contains("Package.swift") }
        #expect(blocks.count == 6)
        for block in blocks {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }
            let text = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(compiled.contains(text), "README snippet not in ReadmeSnippets.swift:\n\(text)")
        }
    }

    /// The reel-then-cut settings of the "Reels, ranges and thumbnails" snippet are valid at each
    /// step (a stream copy with the reel's crossfade left in was refused).
    @Test func theReelsSnippetsSettingsAreValid() throws {
        var config = VideoQuality.socialMedia.defaultConfig
        config.trim = .highlights(HighlightReelOptions(maximumDuration: 30, minimumLevel: 5))
        config.crossfadeDuration = 0.5
        try config.validate()
        config.trim = .ranges([TimeRange(start: MediaTime(value: 3, timescale: 2), end: MediaTime(value: 4, timescale: 1))])
        config.crossfadeDuration = 0
        config.streamCopy = true
        try config.validate()
    }
}
