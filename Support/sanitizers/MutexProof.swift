// Correctly locked, yet ThreadSanitizer on Linux reports a data race here
// (Swift 6.3): Synchronization.Mutex locks with a futex the TSan runtime does
// not model, so it sees no happens-before between the two threads.
import Synchronization
import Foundation
let counter = Mutex(0)
let threads = (0..<2).map { _ in Thread { for _ in 0..<10_000 { counter.withLock { $0 += 1 } } } }
threads.forEach { $0.start() }
while counter.withLock({ $0 }) < 20_000 { usleep(1000) }
print("counter:", counter.withLock { $0 })
