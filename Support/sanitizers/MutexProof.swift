// Correctly locked, yet ThreadSanitizer on Linux reports a "Swift access race"
// here (Swift 6.3): Mutex takes a contended lock in libswiftSynchronization's
// _lockSlow (not instrumented) and the kernel (FUTEX_LOCK_PI), so TSan sees no
// happens-before between the two threads. Both start together to contend.
// swiftc -sanitize=thread MutexProof.swift && ./MutexProof   (make sanitize-thread runs it)
import Foundation
import Synchronization
final class Box: Sendable { let counter = Mutex(0); let go = Atomic(false) }
let box = Box()
let threads = (0..<2).map { _ in Thread { while !box.go.load(ordering: .acquiring) {}; for _ in 0..<200_000 { box.counter.withLock { $0 += 1 } } } }
threads.forEach { $0.start() }
box.go.store(true, ordering: .releasing)
while box.counter.withLock({ $0 }) < 400_000 { usleep(1000) }
print("counter:", box.counter.withLock { $0 })
