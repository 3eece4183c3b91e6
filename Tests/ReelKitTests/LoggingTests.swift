import Foundation
import Synchronization
import Testing
@testable import ReelMedia
@testable import ReelSupport

@Suite(.serialized, .timeLimit(.minutes(5))) struct LoggingTests {
    @Test func ffmpegLogLinesReachTheHandlerOnlyWhenInstalled() throws {
        let lines = ProgressLogLines()
        ReelLog.setHandler(level: .error) { level, line in lines.append("\(level): \(line)") }
        defer { ReelLog.setHandler(nil) }
        let truncated = try Fixtures.clip("truncated.mp4")
        #expect(throws: ReelError.self) { _ = try MediaInfo.probe(truncated) }
        #expect(lines.all.contains { $0.contains("error") })
        ReelLog.setHandler(nil)
        let count = lines.all.count
        #expect(throws: ReelError.self) { _ = try MediaInfo.probe(truncated) }
        #expect(lines.all.count == count)
    }
}

/// Collects strings from any thread.
final class ProgressLogLines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var all: [String] { storage.withLock { $0 } }
}
