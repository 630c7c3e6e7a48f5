import Foundation
import Synchronization

extension Process {
    /// Waits up to `timeout` for the child to exit, then reaps it (``reap()``);
    /// false (and the child left running) if it did not exit.
    public func exited(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now > deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        reap()
        return true
    }

    /// `waitUntilExit()`, for every test that starts a process: call it on the
    /// thread that called `run()`.
    ///
    /// Shaped by two traps that LeakSanitizer shows (docs/reliability.md,
    /// "Sanitizers over the whole suite"). swift-corelibs-foundation's `run()`
    /// makes a run-loop source that retains the `Process`, and only
    /// `waitUntilExit()` lets go of it: a `Process` seen to exit through
    /// `isRunning` alone is never freed. And `run()` and `waitUntilExit()`
    /// weakly reference the thread's `RunLoop`, which gives it a side table
    /// that the Swift runtime points to only from the object's shifted
    /// reference count, where LeakSanitizer cannot see it: once the weak
    /// reference goes, the table of a `RunLoop` still alive looks leaked.
    /// One weak reference per such `RunLoop`, kept here, keeps it visible.
    public func reap() {
        RunLoopTables.keepCurrentVisible()
        waitUntilExit()
    }
}

/// A weak reference to each thread's `RunLoop` that reaped a process (see ``Process/reap()``).
private enum RunLoopTables {
    final class Reference {
        weak var runLoop: RunLoop?
        init(_ runLoop: RunLoop) { self.runLoop = runLoop }
    }

    static let kept = Mutex<[ObjectIdentifier: Reference]>([:])

    static func keepCurrentVisible() {
        kept.withLock { kept in
            let runLoop = RunLoop.current
            let id = ObjectIdentifier(runLoop)
            // A RunLoop gone (its thread ended) may leave its address to a new one.
            if kept[id]?.runLoop !== runLoop { kept[id] = Reference(runLoop) }
        }
    }
}
