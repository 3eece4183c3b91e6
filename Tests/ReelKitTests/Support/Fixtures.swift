import Foundation
import Synchronization

/// Test clips made by `Fixtures/make-fixtures.sh` into a cache under `.build`, once per run.
enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let cacheDirectory = repositoryRoot.appendingPathComponent(".build/fixture-cache")

    private static let made = Mutex<Set<String>>([])

    /// The path of a fixture clip, generating it on first use.
    static func clip(_ name: String) throws -> URL {
        let url = cacheDirectory.appendingPathComponent(name)
        try made.withLock { names in
            guard !names.contains(name) else { return }
            if !FileManager.default.fileExists(atPath: url.path) {
                try run(repositoryRoot.appendingPathComponent("Fixtures/make-fixtures.sh").path,
                        [cacheDirectory.path, name])
            }
            names.insert(name)
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

    /// Runs a program and returns its standard output; throws when it exits non-zero.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
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
