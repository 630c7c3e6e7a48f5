// The counter-proof of tsan.supp: a plain variable written by two threads
// without a lock is still reported with the suppressions on.
// swiftc -sanitize=thread RaceProof.swift && ./RaceProof   (make sanitize-thread runs it)
import Foundation
import Synchronization
final class Box: @unchecked Sendable { var counter = 0; let go = Atomic(false); let done = Atomic(0) }
let box = Box()  // @unchecked on purpose: the race is what this program shows
let threads = (0..<2).map { _ in Thread { while !box.go.load(ordering: .acquiring) {}; for _ in 0..<200_000 { box.counter += 1 }; box.done.add(1, ordering: .releasing) } }
threads.forEach { $0.start() }
box.go.store(true, ordering: .releasing)
while box.done.load(ordering: .acquiring) < 2 { usleep(1000) }
print("counter:", box.counter)
