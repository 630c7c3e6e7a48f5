import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
@testable import DeckHost

/// A command still running when the host stops must not keep the host
/// allocated: its `finished` held the whole host (through the loop-bound
/// reference its completion captures), which LeakSanitizer found alive at
/// deckd's exit after a test stopped deckd during an action.
@Suite("BuiltinActionRunner after the host stops")
struct ActionRunnerReleaseTests {
    /// Stands for the host a real `finished` captures.
    final class Host: Sendable {}

    private func runner() -> BuiltinActionRunner {
        BuiltinActionRunner(logger: Logger(minimum: .error, descriptor: -1), opener: nil, environment: [:])
    }

    private func press(_ command: String) -> ActionRequest {
        ActionRequest(page: 0, index: 0, button: DeckButton(name: "Slow", action: .run(command: command)), phase: .tap, by: nil)
    }

    @Test func aCommandStillRunningHoldsNothingOnceReleased() throws {
        let folder = try TemporaryDirectory(prefix: "runner")
        let runner = runner()
        let ended = Atomic<Int>(0)
        weak var held: Host?
        do {
            let host = Host()
            held = host
            // Runs until the test's folder goes: it outlives the host's stop.
            runner.run(press("while [ -d '\(folder.path)' ]; do sleep 0.02; done")) { _ in
                withExtendedLifetime(host) { _ = ended.add(1, ordering: .relaxed) }
            }
        }
        #expect(held != nil, "the runner holds `finished` while the command runs")
        runner.shutdown()
        runner.releaseAfterStop()
        #expect(held == nil, "a running command still holds the host after releaseAfterStop")
        #expect(ended.load(ordering: .relaxed) == 0)
    }

    @Test func beforeTheStopEveryEndIsToldOnce() throws {
        let runner = runner()
        let ends = Mutex<[ActionOutcome]>([])
        let done = DispatchSemaphore(value: 0)
        runner.run(press("exit 3")) { outcome in
            ends.withLock { $0.append(outcome) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        runner.releaseAfterStop()
        #expect(ends.withLock { $0 } == [.exited(status: 3)])
    }
}
