import Foundation
import Testing

/// What a run of the `reel` binary produced.
struct ReelRun {
    /// The exit status (or 128 + signal when killed by one).
    let status: Int32
    /// Everything written to standard output.
    let stdout: String
    /// Everything written to standard error.
    let stderr: String

    /// Standard output parsed as one JSON object.
    func jsonObject() throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(value as? [String: Any], "stdout is not a JSON object: \(stdout)")
    }
}

/// Runs the `reel` executable built next to this test bundle.
enum Reel {
    /// The built `reel` binary: `$REEL_BINARY`, else the products directory that holds the
    /// test bundle (found by walking up from the running test executable).
    static let binary: URL? = {
        if let explicit = ProcessInfo.processInfo.environment["REEL_BINARY"] {
            return URL(fileURLWithPath: explicit)
        }
        let starts = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL]
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                directory = directory.deletingLastPathComponent()
                let candidate = directory.appendingPathComponent("reel")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }()

    /// Runs `reel arguments` in `directory` and waits for it, at most `timeout` seconds: a
    /// process still running then is killed and the test fails, instead of hanging the run.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        binary: URL? = nil, timeout: TimeInterval = 120
    ) throws -> ReelRun {
        let process = try start(arguments, in: directory, environment: environment, binary: binary)
        if !process.process.waitForExit(timeout: timeout) {
            Issue.record("reel \(arguments.joined(separator: " ")) ran longer than \(timeout) s and was killed")
        }
        return try process.result()
    }

    /// `run` for async tests: the same, but it suspends while `reel` runs, so a test waiting on
    /// a long command leaves the test runner's few threads (one per core) to the other tests.
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        binary: URL? = nil, timeout: TimeInterval = 120
    ) async throws -> ReelRun {
        let process = try start(arguments, in: directory, environment: environment, binary: binary)
        if !(await process.process.exit(timeout: timeout)) {
            Issue.record("reel \(arguments.joined(separator: " ")) ran longer than \(timeout) s and was killed")
        }
        return try process.result()
    }

    /// Starts `reel arguments` in `directory` without waiting.
    static func start(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        binary explicitBinary: URL? = nil
    ) throws -> RunningReel {
        let binary = try #require(explicitBinary ?? Reel.binary, "the reel binary was not found; build it first")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var variables = ProcessInfo.processInfo.environment
        variables["REEL_PRESETS_DIR"] = directory.appendingPathComponent(".no-presets").path
        for (key, value) in environment { variables[key] = value }
        process.environment = variables
        let id = UUID().uuidString.prefix(8)
        let out = directory.appendingPathComponent(".stdout-\(id)")
        let err = directory.appendingPathComponent(".stderr-\(id)")
        try Data().write(to: out)
        try Data().write(to: err)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningReel(process: process, stdoutFile: out, stderrFile: err)
    }
}

extension Process {
    /// `waitForExit` for async code: suspends between checks instead of blocking a thread.
    func exit(timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning, Date() < deadline { try? await Task.sleep(nanoseconds: 20_000_000) }
        guard isRunning else { return true }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
        return false
    }

    /// Waits until the process exits, at most `timeout` seconds; past that it is killed.
    /// Returns whether it exited on its own.
    func waitForExit(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning, Date() < deadline { usleep(5_000) }
        guard isRunning else { return true }
        kill(processIdentifier, SIGKILL)
        waitUntilExit()
        return false
    }
}

/// A `reel` process that was started and may still be running.
struct RunningReel {
    /// The process.
    let process: Process
    /// Where its standard output goes.
    let stdoutFile: URL
    /// Where its standard error goes.
    let stderrFile: URL

    /// The result, once the process has exited; the capture files are removed.
    func result() throws -> ReelRun {
        let stdout = try String(contentsOf: stdoutFile, encoding: .utf8)
        let stderr = try String(contentsOf: stderrFile, encoding: .utf8)
        try? FileManager.default.removeItem(at: stdoutFile)
        try? FileManager.default.removeItem(at: stderrFile)
        let status = process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
        return ReelRun(status: status, stdout: stdout, stderr: stderr)
    }
}
