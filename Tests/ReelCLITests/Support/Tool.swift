import Foundation

/// Runs a command-line tool and collects its output, suspending while it runs.
enum Tool {
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let id = UUID().uuidString
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tool-out-\(id)")
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("tool-err-\(id)")
        try Data().write(to: out)
        try Data().write(to: err)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        _ = await process.exit(timeout: 300)
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }
}
