import Foundation
import ReelKit
import Testing

/// README.md's Swift snippets compile (ReadmeSnippets.swift) and stay the same as the README's,
/// imports included.
@Suite struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every ```swift block of the README but the Package.swift one.
    static func snippets() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
            .filter { !$0.contains("Package.swift") }
    }

    static func compiled() throws -> String {
        try String(contentsOf: root.appendingPathComponent("Tests/ReadmeSnippetTests/ReadmeSnippets.swift"), encoding: .utf8)
    }

    static func imports(of text: String) -> Set<String> {
        Set(text.split(separator: "\n").filter { $0.hasPrefix("import ") }.map(String.init))
    }

    /// Each snippet appears, line for line (imports aside), in ReadmeSnippets.swift.
    @Test func theSnippetsAreTheReadmes() throws {
        let blocks = try Self.snippets(), compiled = try Self.compiled()
        #expect(blocks.count == 8)
        for block in blocks {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }
            let text = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(compiled.contains(text), "README snippet not in ReadmeSnippets.swift:\n\(text)")
        }
    }

    /// Each snippet shows the imports it needs: ReadmeSnippets.swift compiles them all importing
    /// nothing that a snippet does not show (its target has MemberImportVisibility, so other
    /// files' imports do not help it). Snippets that showed only `import ReelKit` did not compile
    /// in an app: no `URL`. `make check-dependent` compiles each one alone in such an app.
    @Test func eachSnippetShowsTheImportsItNeeds() throws {
        let needed = Self.imports(of: try Self.compiled())
        #expect(needed.contains("import ReelKit"))
        for block in try Self.snippets() {
            let missing = needed.subtracting(Self.imports(of: block))
            #expect(missing.isEmpty, "README snippet does not show \(missing.sorted()):\n\(block)")
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
