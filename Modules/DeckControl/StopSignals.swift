import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Makes SIGINT (Ctrl-C) and SIGTERM end `deckctl watch` with status 0,
/// between two lines of output.
///
/// The handler only writes a byte to a pipe (async-signal-safe); a thread
/// waiting on the pipe takes the output lock and exits, so a line being
/// written when the signal arrives is finished first. The socket is closed
/// by the exit and the host sees the watcher leave.
enum StopSignals {
    /// The pipe's write end, read by the handler: an atomic, so reading it in
    /// a signal handler is a plain lock-free load (initialized before the
    /// handler is installed, so no lazy initialization runs inside it).
    private static let wakeDescriptor = Atomic<Int32>(-1)

    /// From now on SIGINT and SIGTERM exit 0. If the pipe cannot be made,
    /// the signals keep their default action (the process ends at once).
    static func exitCleanly() {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return }
        // Close-on-exec, so nothing deckctl might start inherits the pipe.
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        let readEnd = descriptors[0]
        wakeDescriptor.store(descriptors[1], ordering: .relaxed)
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            Console.exitBetweenLines(status: DeckctlExit.ok.rawValue)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(StopSignals.wakeDescriptor.load(ordering: .relaxed), &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may start deckctl with these signals blocked (a thread of a
        // test runner, some supervisors); then they would never arrive.
        var stopping = sigset_t()
        sigemptyset(&stopping)
        sigaddset(&stopping, SIGINT)
        sigaddset(&stopping, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
    }
}
