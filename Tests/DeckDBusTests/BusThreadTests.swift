import DeckDBus
import Glibc
import Synchronization
import Testing

/// The bus thread and its mailbox: what one thread posts, a thread waiting in `poll` takes, in order.
@Suite struct BusThreadTests {
    @Test func aThreadInPollTakesEveryPostInOrderAndEndsOnStop() throws {
        let mailbox = try BusMailbox<Int>(for: "test thread")
        let taken = Mutex<[Int]>([])
        let thread = try BusThread("test thread") {
            while true {
                var wake = pollfd(fd: mailbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&wake, 1, -1)
                let (items, stopped) = mailbox.take()
                taken.withLock { $0 += items }
                if stopped { return }
            }
        }
        for number in 0..<1000 { mailbox.post(number) }
        mailbox.post([1000, 1001])
        mailbox.post([])
        mailbox.stop()
        thread.join()
        #expect(taken.withLock { $0 } == Array(0...1001))
    }
}
