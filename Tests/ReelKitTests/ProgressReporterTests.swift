import Dispatch
import Foundation
import Testing
@testable import ReelSupport

/// Progress reaches the handler in order even when several threads report side by side (the
/// analysis's decode workers do): a bar never steps back.
@Suite(.timeLimit(.minutes(1))) struct ProgressReporterTests {
    @Test func concurrentReportsReachTheHandlerInOrder() {
        let log = ProgressLog()
        let reporter = ProgressReporter { value in
            // A handler that takes a moment (a terminal write) widens any gap between deciding
            // to send a value and delivering it.
            usleep(50)
            log.handler(value)
        }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for step in 0..<500 { reporter.report(Double(step * 4 + worker) / 2000) }
        }
        reporter.finish()
        let values = log.all
        #expect(values.count >= 50 && values.last == 1)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "\(values)")
    }
}
