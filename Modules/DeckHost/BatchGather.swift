import DeckTransport

/// Gathering the edits of devices that are about to send, so that they share
/// one durable write instead of splitting into alternating batches.
///
/// Why: with the writer taking everything queued as soon as it is free,
/// devices that edit together settle into two groups — while one group's
/// batch is on disk the other group's edits queue — and every edit pays half
/// a batch's flushes instead of an eighth (eight devices). So when a batch
/// finishes, the devices it acknowledged are *awaited*: they are likely to
/// send their next edit within moments. Until each has sent one, or
/// ``BatchGather/window`` has passed since the batch finished, queued writes
/// are held (``CommitPipeline/hold()``) and then go as one batch.
/// ``CommitScheduler`` keeps it in step with the pipeline.
///
/// It never delays a lone device: its own next edit ends the wait (nobody
/// else is awaited), and any edit that arrives after the window finds no
/// hold. The longest an edit can wait is the window, and only when it comes
/// right after another device's batch.
struct BatchGather {
    /// How long after a batch its devices are waited for.
    let window: Duration
    /// The device of each write queued in the pipeline and not yet in a batch,
    /// oldest first (nil for writes no device asked for: reloads, restores).
    private var queued: [ConnectionID?] = []
    /// The devices of the batch with the writer.
    private var writing: [ConnectionID] = []
    /// Devices acknowledged by the last batch that have not sent an edit since.
    private(set) var awaited: Set<ConnectionID> = []
    /// When the wait for `awaited` ends.
    private(set) var deadline: ContinuousClock.Instant?

    init(window: Duration = .milliseconds(2)) {
        self.window = window
    }

    /// A write entered the pipeline for `device`.
    mutating func queuedWrite(from device: ConnectionID?) {
        queued.append(device)
    }

    /// The pipeline handed the oldest `count` queued writes to the writer.
    mutating func batchStarted(count: Int) {
        writing += queued.prefix(count).compactMap { $0 }
        queued.removeFirst(min(count, queued.count))
    }

    /// Every queued write was refused (a failed batch rolls them back).
    mutating func queueDropped() {
        queued.removeAll()
    }

    /// The batch with the writer is done. Returns true when the next batch
    /// should be held: some of its devices are now awaited.
    mutating func batchFinished(now: ContinuousClock.Instant) -> Bool {
        awaited = Set(writing)
        writing.removeAll()
        deadline = awaited.isEmpty ? nil : now + window
        return !awaited.isEmpty
    }

    /// `device` sent an edit or left. Returns true when the wait is over:
    /// nobody else is awaited, or the window has passed.
    mutating func heard(from device: ConnectionID, now: ContinuousClock.Instant) -> Bool {
        awaited.remove(device)
        guard let deadline else { return true }
        return awaited.isEmpty || now >= deadline
    }

    /// The wait is over (released); nobody is awaited until the next batch finishes.
    mutating func ended() {
        awaited.removeAll()
        deadline = nil
    }
}
