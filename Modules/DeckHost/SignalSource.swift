internal import CLinux
import DeckTransport
import Glibc

/// SIGTERM, SIGINT and SIGHUP, read on the event loop through a signalfd.
///
/// The signals must be blocked in every thread before any thread starts
/// (``blockHostSignals()`` at the top of `main`), or the kernel may deliver
/// one to a thread that does not read the signalfd and the default action
/// would kill the process mid-write.
final class SignalSource {
    private let descriptor: Int32
    private var watch: FDWatch?

    /// Reads the host's signals on `loop`, calling `received` with each signal number.
    init(loop: EventLoop, received: @escaping (Int32) -> Void) throws(HostError) {
        var mask = hostSignalMask()
        descriptor = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else { throw .runtime("could not read signals: \(String(cString: strerror(errno)))") }
        let fd = descriptor
        do {
            watch = try loop.watchReadable(fd) {
                var info = signalfd_siginfo()
                while true {
                    let count = read(fd, &info, MemoryLayout<signalfd_siginfo>.size)
                    if count < 0 && errno == EINTR { continue }
                    guard count == MemoryLayout<signalfd_siginfo>.size else { break }
                    received(Int32(info.ssi_signo))
                }
            }
        } catch {
            _ = close(fd)
            throw .runtime("could not watch signals: \(error)")
        }
    }

    func cancel() {
        guard let watch else { return }
        watch.cancel()
        self.watch = nil
        _ = close(descriptor)
    }
}

func hostSignalMask() -> sigset_t {
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&mask, signal) }
    return mask
}

/// Blocks SIGTERM, SIGINT and SIGHUP for this thread and every thread it
/// starts; the host reads them through a signalfd instead. Call first in `main`.
public func blockHostSignals() {
    var mask = hostSignalMask()
    pthread_sigmask(SIG_BLOCK, &mask, nil)
}
