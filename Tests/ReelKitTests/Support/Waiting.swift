import Foundation
import Testing

/// Waits until `condition` holds, polling every 2 ms; fails the test after `seconds`. For
/// waiting on a state (a call queued, progress reached), never for time to pass.
func waitUntil(seconds: Double = 30, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        try #require(Date() < deadline, "condition not met within \(seconds) s")
        try await Task.sleep(for: .milliseconds(2))
    }
}
