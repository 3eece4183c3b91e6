import Foundation
import Testing

/// The progress bar on a real terminal (a pseudo-terminal from util-linux `script`): it fits
/// the terminal's width and names the phase, even for a long path on 60 columns.
@Suite(.timeLimit(.minutes(5))) struct ProgressBarTests {
    @Test func theBarFitsSixtyColumnsAndNamesThePhase() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let directory = "a-rather-long-directory-name-for-testing"
        try TestClips.copy(.long, to: scratch.url.appendingPathComponent(directory), as: "holiday-in-the-mountains-2026.mp4")
        let binary = try #require(Reel.binary)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.currentDirectoryURL = scratch.url
        process.arguments = ["-qec", "stty cols 60 rows 20; \(binary.path) compress \(directory)/holiday-in-the-mountains-2026.mp4 "
                             + "-o out.mp4 --speed ultrafast", "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\u{1B}[K", with: "")
        let bars = text.components(separatedBy: CharacterSet(charactersIn: "\r\n")).filter { $0.contains("] ") && $0.contains("%") }
        #expect(!bars.isEmpty, "no bar drawn: \(text.prefix(400))")
        #expect(bars.allSatisfy { $0.count <= 59 }, "\(bars.map(\.count))")
        #expect(bars.contains { $0.contains("(encoding)") && $0.contains("...") }, "\(bars.prefix(3))")
        #expect(bars.allSatisfy { $0.contains("[") }, "the bar itself must always show")
    }
}
