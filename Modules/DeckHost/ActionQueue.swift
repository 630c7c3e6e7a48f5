/// The shell's queue of ``HostAction``s: applying one action may hand the
/// rules another input; its actions wait behind the ones already queued
/// instead of running inside the one being applied.
struct ActionQueue {
    private var pending: [HostAction] = []
    private var cursor = 0
    private var draining = false

    /// Queues `actions`; true when the caller is the one to drain the queue
    /// (nothing is being applied), false when an outer caller already is.
    mutating func enqueue(_ actions: [HostAction]) -> Bool {
        pending += actions
        if draining { return false }
        draining = true
        return true
    }

    /// The next action to apply; nil (and the queue empty, ready for the
    /// next drain) once every queued action was handed out.
    mutating func next() -> HostAction? {
        guard cursor < pending.count else {
            pending.removeAll(keepingCapacity: true)
            cursor = 0
            draining = false
            return nil
        }
        defer { cursor += 1 }
        return pending[cursor]
    }
}
