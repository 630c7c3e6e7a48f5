#if canImport(Glibc)
import Glibc
#endif
import DeckPluginKit
import Synchronization

/// What the plugin thread hands the OBS thread: the newest buttons, presses
/// (bounded), the stop. A byte on a pipe wakes the OBS thread's poll.
final class ObsInbox: Sendable {
    struct Contents {
        var buttons: [PluginButton]?
        var presses: [PluginPress] = []
        var dropped = 0
        var stop = false
    }

    /// Presses waiting at most; more are dropped with a log line (OBS stopped answering).
    static let maximumPresses = 32

    private let contents = Mutex(Contents())
    /// The pipe's read end (polled by the OBS thread) and write end.
    let wakeRead: Int32
    private let wakeWrite: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        // Without the pipe the plugin cannot work at all: a failure here is fatal at start.
        guard pipe(&ends) == 0 else { fatalError("obs: cannot make a pipe: \(errno)") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func post(buttons: [PluginButton]) {
        contents.withLock { $0.buttons = buttons }
        wake()
    }

    func post(press: PluginPress) {
        contents.withLock { contents in
            if contents.presses.count < Self.maximumPresses { contents.presses.append(press) } else { contents.dropped += 1 }
        }
        wake()
    }

    func postStop() {
        contents.withLock { $0.stop = true }
        wake()
    }

    /// Takes everything posted so far.
    func take() -> Contents {
        var byte = [UInt8](repeating: 0, count: 64)
        while byte.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
        return contents.withLock { contents in
            defer { contents = Contents(stop: contents.stop) }
            return contents
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already wakes the reader
    }
}
