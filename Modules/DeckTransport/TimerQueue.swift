/// A one-shot timer on an event loop, made by ``EventLoop/schedule(after:_:)``.
/// Use it only on the loop's thread.
public final class LoopTimer {
    enum Phase { case pending, fired, cancelled }

    let deadline: UInt64
    let sequence: UInt64
    var action: (() -> Void)?
    var phase = Phase.pending
    let queue: TimerQueue

    init(deadline: UInt64, sequence: UInt64, action: @escaping () -> Void, queue: TimerQueue) {
        self.deadline = deadline
        self.sequence = sequence
        self.action = action
        self.queue = queue
    }

    /// Whether the timer has neither fired nor been cancelled.
    public var isPending: Bool { phase == .pending }

    /// Stops the timer from firing. Harmless after it fired or was cancelled.
    /// What the action captured is released at once.
    public func cancel() {
        queue.cancel(self)
    }
}

/// The loop's timers, ordered by deadline (ties in scheduling order) in a
/// binary heap. Cancelled timers stay in the heap as empty tombstones until
/// they reach the top, where they are dropped before the next wait is
/// computed, so a cancelled timer never causes a wake-up.
///
/// A pending timer holds its queue (``LoopTimer/cancel()`` needs it), so the
/// owner calls ``removeAll()`` when it is done with the queue, as the loop
/// does when it stops; otherwise the two keep each other allocated.
final class TimerQueue {
    private var heap: [LoopTimer] = []
    private var tombstones = 0
    private var nextSequence: UInt64 = 0
    /// Checks the calling thread on the public entry points of ``LoopTimer``
    /// (set by the loop once it exists).
    var checkThread: () -> Void = {}

    /// Timers not yet fired or cancelled.
    var pendingCount: Int { heap.count - tombstones }

    func schedule(deadline: UInt64, _ action: @escaping () -> Void) -> LoopTimer {
        nextSequence += 1
        let timer = LoopTimer(deadline: deadline, sequence: nextSequence, action: action, queue: self)
        heap.append(timer)
        siftUp(heap.count - 1)
        return timer
    }

    func cancel(_ timer: LoopTimer) {
        checkThread()
        guard timer.phase == .pending else { return }
        timer.phase = .cancelled
        timer.action = nil
        tombstones += 1
        if tombstones > 64 && tombstones * 2 > heap.count { compact() }
    }

    /// The earliest live deadline, dropping tombstones on top.
    func nextDeadline() -> UInt64? {
        while let top = heap.first, top.phase == .cancelled {
            removeTop()
            tombstones -= 1
        }
        return heap.first?.deadline
    }

    /// Fires every timer whose deadline is at or before `now`, earliest first.
    /// A timer that an action schedules for later than `now` waits for the next round.
    func fireDue(now: UInt64) {
        while let deadline = nextDeadline(), deadline <= now {
            let timer = heap[0]
            removeTop()
            timer.phase = .fired
            let action = timer.action
            timer.action = nil
            action?()
        }
    }

    /// Drops every timer without firing it (the loop is stopping).
    func removeAll() {
        for timer in heap where timer.phase == .pending {
            timer.phase = .cancelled
            timer.action = nil
        }
        heap = []
        tombstones = 0
    }

    private func compact() {
        heap.removeAll { $0.phase == .cancelled }
        tombstones = 0
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private func removeTop() {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
    }

    private func earlier(_ a: Int, _ b: Int) -> Bool {
        let x = heap[a], y = heap[b]
        return x.deadline != y.deadline ? x.deadline < y.deadline : x.sequence < y.sequence
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard earlier(child, parent) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var best = left
            if left + 1 < heap.count && earlier(left + 1, left) { best = left + 1 }
            guard earlier(best, parent) else { return }
            heap.swapAt(best, parent)
            parent = best
        }
    }
}
