import DeckTestSupport
import Foundation
import Testing

/// The harness's `Process.exited(within:)` and `reap()`: Foundation frees a `Process` only
/// once `waitUntilExit()` has run (its run-loop source retains it until then),
/// which the harness once skipped, and LeakSanitizer found every such deckd's
/// `Process` still allocated when the test runner exited.
@Suite struct ProcessReapTests {
    private func started(_ program: String, _ arguments: [String] = []) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        try process.run()
        return process
    }

    @Test func aReapedProcessIsFreed() throws {
        weak var freed: Process?
        do {
            let process = try started("/bin/true")
            #expect(process.exited(within: .seconds(20)))
            #expect(process.terminationStatus == 0)
            freed = process
        }
        // Foundation's own thread lets go of its last reference just after the
        // exit is seen: wait for that, bounded.
        let deadline = ContinuousClock.now + .seconds(10)
        while freed != nil && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(freed == nil, "the Process outlived its last reference")
    }

    @Test func aChildStillRunningIsLeftRunning() throws {
        let process = try started("/bin/sleep", ["30"])
        #expect(!process.exited(within: .milliseconds(50)))
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGKILL)
        #expect(process.exited(within: .seconds(20)))
        #expect(process.terminationReason == .uncaughtSignal)
    }
}
