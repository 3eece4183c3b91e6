import Foundation
import Testing

/// Ctrl-C and SIGTERM stop a compression cleanly.
@Suite struct SignalTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalLeavesNoPartialOutput(signal: Int32, expectedStatus: Int32) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.long, to: scratch.url, as: "long.mp4")
        let running = try Reel.start(
            ["compress", "long.mp4", "--speed", "veryslow", "--no-content-aware"],
            in: scratch.url)
        let deadline = Date().addingTimeInterval(30)
        var sawTemporaryFile = false
        while Date() < deadline, running.process.isRunning {
            if try scratch.names().contains(where: { $0.contains(".reel-tmp-") }) {
                sawTemporaryFile = true
                break
            }
            usleep(20_000)
        }
        #expect(sawTemporaryFile, "the compression never started writing")
        kill(running.process.processIdentifier, signal)
        running.process.waitUntilExit()
        let run = try running.result()
        #expect(run.status == expectedStatus, "\(run.stderr)")
        #expect(run.stderr.contains("interrupted by"), "\(run.stderr)")
        #expect(try scratch.names() == ["long.mp4"], "no output and no temporary file remain")
    }
}
