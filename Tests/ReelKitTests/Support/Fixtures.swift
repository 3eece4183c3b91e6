import Foundation
import Synchronization

/// Test clips made by `Fixtures/make-fixtures.sh` into a cache under `.build`, once per run.
enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let cacheDirectory = repositoryRoot.appendingPathComponent(".build/fixture-cache")

    /// One lock per clip name: tests that need the same clip wait for one maker, tests that
    /// need different clips make them side by side (the script renames each clip into place,
    /// so concurrent makers are safe).
    private static let locks = Mutex<[String: ClipLock]>([:])

    private final class ClipLock: Sendable {
        let made = Mutex(false)
    }

    /// The path of a fixture clip, generating it on first use.
    static func clip(_ name: String) throws -> URL {
        let url = cacheDirectory.appendingPathComponent(name)
        let clipLock = locks.withLock { locks in
            if let existing = locks[name] { return existing }
            let created = ClipLock()
            locks[name] = created
            return created
        }
        try clipLock.made.withLock { made in
            guard !made else { return }
            if !FileManager.default.fileExists(atPath: url.path) {
                try run(repositoryRoot.appendingPathComponent("Fixtures/make-fixtures.sh").path,
                        [cacheDirectory.path, name])
            }
            made = true
        }
        return url
    }

    /// A fresh empty directory for one test's outputs.
    static func scratchDirectory(_ label: String = #function) throws -> URL {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("reelkit-tests-\(safe)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs a program and returns its standard output; throws when it exits non-zero or runs
    /// longer than `timeout` seconds (it is killed then).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 180) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Files, not pipes: a pipe that fills up would block the program and the wait.
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("reelkit-run-\(UUID().uuidString)")
        let outputURL = capture.appendingPathExtension("out"), errorURL = capture.appendingPathExtension("err")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw FixtureError.commandFailed("\(executable) \(arguments.joined(separator: " ")): ran longer than \(timeout) s")
        }
        let data = (try? Data(contentsOf: outputURL)) ?? Data()
        let errorData = (try? Data(contentsOf: errorURL)) ?? Data()
        guard process.terminationStatus == 0 else {
            throw FixtureError.commandFailed(
                "\(executable) \(arguments.joined(separator: " ")): \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// ffprobe's JSON for a file (streams, format), for cross-checks of our own demuxer.
    static func ffprobe(_ url: URL, _ extra: [String] = []) throws -> [String: Any] {
        let text = try run("/usr/bin/ffprobe", ["-v", "error", "-print_format", "json"] + extra + [url.path])
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// Files in a directory (hidden ones included), to prove nothing was left behind.
    static func contents(of directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }
}

enum FixtureError: Error {
    case commandFailed(String)
}

/// Collects progress values from any thread.
final class ProgressLog: Sendable {
    private let values = Mutex<[Double]>([])

    var handler: @Sendable (Double) -> Void { { [self] value in values.withLock { $0.append(value) } } }

    var all: [Double] { values.withLock { $0 } }
}
