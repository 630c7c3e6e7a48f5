import Foundation
import Glibc

/// For tests of calls that must never block (a FIFO where a file should be):
/// a call that does block fails the test instead of hanging the suite.
public enum Blocking {
    /// Runs `body` on a thread of its own and waits up to `seconds` for it.
    /// When it has not finished by then, `release` is called to let it
    /// through (so the thread ends) and the answer is false.
    public static func finishes(within seconds: Double, release: @escaping @Sendable () -> Void,
                                _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .success { return true }
        release()
        _ = done.wait(timeout: .now() + 30)
        return false
    }

    /// Opens the FIFO at `path` for writing without blocking and closes it:
    /// a reader blocked in `open` gets through and then reads end of file.
    public static func unblockFIFO(_ path: String) {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 { close(fd) }
    }
}
