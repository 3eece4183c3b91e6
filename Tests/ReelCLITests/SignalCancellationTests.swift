import Foundation
import Testing

/// Ctrl-C and SIGTERM stop a compression cleanly. Timed against a running process, so `make
/// test` runs it with the other *Cancellation* suites, alone.
@Suite(.timeLimit(.minutes(5))) struct SignalCancellationTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalLeavesNoPartialOutput(signal: Int32, expectedStatus: Int32) async throws {
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
        #expect(running.process.waitForExit(timeout: 30), "the process did not stop")
        let run = try running.result()
        #expect(run.status == expectedStatus, "\(run.stderr)")
        #expect(run.stderr.contains("interrupted by"), "\(run.stderr)")
        #expect(try scratch.names() == ["long.mp4"], "no output and no temporary file remain")
    }

    /// Analyze and thumbnail report the signal that stopped them as compress does: 130 for
    /// SIGINT, 143 for SIGTERM. The signal is sent once the process has the video open.
    @Test(arguments: [
        (["analyze", "minute.mp4", "--sample-rate", "30"], SIGTERM, Int32(143)),
        (["thumbnail", "minute.mp4", "-o", "key.jpg"], SIGTERM, Int32(143)),
        (["analyze", "minute.mp4", "--sample-rate", "30"], SIGINT, Int32(130)),
    ])
    func analysisCommandsReportTheSignal(arguments: [String], signal: Int32, expectedStatus: Int32) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let video = try TestClips.copy(.minute, to: scratch.url, as: "minute.mp4")
        var finishedFirst = 0
        var stopped: ReelRun?
        // A machine busy enough to starve this test's polling may let the command finish before
        // the signal goes out: that attempt proves nothing, so it is made again (at most 3 times).
        while stopped == nil, finishedFirst < 3 {
            let running = try Reel.start(arguments, in: scratch.url)
            let opened = Self.waitUntil(running.process, opens: video, deadline: Date().addingTimeInterval(30))
            #expect(opened || !running.process.isRunning, "the command never opened the video")
            guard running.process.isRunning else {
                _ = running.process.waitForExit(timeout: 30)
                _ = try running.result()
                try? FileManager.default.removeItem(at: scratch.path("key.jpg"))
                finishedFirst += 1
                continue
            }
            kill(running.process.processIdentifier, signal)
            #expect(running.process.waitForExit(timeout: 30), "the process did not stop")
            stopped = try running.result()
        }
        let run = try #require(stopped, "the command finished before every signal")
        #expect(run.status == expectedStatus, "\(run.stderr)")
        #expect(run.stderr.contains("interrupted by"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("key.jpg").path))
    }

    /// Polls `/proc/PID/fd` until the process has `file` open (or the deadline passes).
    static func waitUntil(_ process: Process, opens file: URL, deadline: Date) -> Bool {
        let target = file.resolvingSymlinksInPath().path
        let descriptors = "/proc/\(process.processIdentifier)/fd"
        while Date() < deadline, process.isRunning {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
            for name in names {
                let link = try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + name)
                if link == target { return true }
            }
            usleep(2_000)
        }
        return false
    }
}
