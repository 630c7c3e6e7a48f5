// Correctly locked, yet ThreadSanitizer on Linux reports a "Swift access race"
// here (Swift 6.3): Synchronization.Mutex waits on a futex the TSan runtime does
// not model, so it sees no happens-before between the two threads.
// swiftc -sanitize=thread MutexProof.swift && ./MutexProof   (make sanitize-thread runs it)
import Synchronization
import Foundation
final class Box: Sendable { let counter = Mutex(0) }
let box = Box()
let threads = (0..<2).map { _ in Thread { for _ in 0..<10_000 { box.counter.withLock { $0 += 1 } } } }
threads.forEach { $0.start() }
while box.counter.withLock({ $0 }) < 20_000 { usleep(1000) }
print("counter:", box.counter.withLock { $0 })
