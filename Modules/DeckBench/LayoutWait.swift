internal import CLinux
import Glibc

/// Waits until every one of many sockets has received a `layout` line of a
/// given revision — the end of a fan-out. One thread, epoll (so each wake-up
/// costs what is ready, not what is connected: `poll` over 256 sockets made
/// the client's own share grow with the square of the count), non-blocking
/// reads. The same reader serves deckd and the floor, so the client's share
/// of the time is the same on both sides of the ratio.
package final class LayoutWait {
    private let sockets: [BenchSocket]
    private let epollFD: Int32
    private var done: [Bool]
    private let events: UnsafeMutablePointer<epoll_event>

    /// Watches `sockets`, which it makes non-blocking.
    package init(_ sockets: [BenchSocket]) throws(BenchError) {
        self.sockets = sockets
        done = Array(repeating: false, count: sockets.count)
        events = .allocate(capacity: max(sockets.count, 1))
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw .system("cannot create an epoll instance", errno) }
        for (index, socket) in sockets.enumerated() {
            socket.setNonBlocking()
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = UInt64(index)
            guard epoll_ctl(epollFD, EPOLL_CTL_ADD, socket.fd, &event) == 0 else { throw .system("cannot watch a socket", errno) }
        }
    }

    deinit {
        close(epollFD)
        events.deallocate()
    }

    /// Returns when each socket has had a `layout` line of `revision`.
    package func waitForAll(revision: Int) throws(BenchError) {
        let type = Array(#"{"type":"layout""#.utf8)
        let mark = Array(#""revision":\#(revision),"#.utf8)
        for index in done.indices { done[index] = false }
        var pending = sockets.count
        while pending > 0 {
            let count = epoll_wait(epollFD, events, Int32(sockets.count), 10_000)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw .setup("\(pending) of \(sockets.count) devices had no layout of revision \(revision) within 10 s")
            }
            for slot in 0..<Int(count) {
                let index = Int(events[slot].data.u64)
                let lines = try sockets[index].readAvailableLines()
                if !done[index], lines.contains(where: { $0.starts(with: type) && $0.prefix(256).firstRange(of: mark) != nil }) {
                    done[index] = true
                    pending -= 1
                }
            }
        }
    }
}
