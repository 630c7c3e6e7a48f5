import DeckSnapshots
import DeckTransport

/// When the host's outcomes are performed and its writes go to disk: the
/// ordered ``CommitPipeline``, the ``BatchGather`` that holds a batch for
/// the devices about to send, the timer that ends such a hold, and the
/// throttle that pauses senders while too much waits. It keeps the gather in
/// step with the pipeline itself (which writes a batch took, which were
/// dropped), so the host never does.
///
/// A swift-nio style state machine: inputs return actions that the host
/// performs in order, then the host calls ``settled()``. Time comes in; no
/// I/O, so tests drive it directly.
struct CommitScheduler<Payload> {
    typealias Pipeline = CommitPipeline<Payload, SnapshotEntry, DeckSnapshots.SnapshotInfo>

    /// What the host must do, in the order given.
    enum Action {
        /// Hand these writes to the disk thread as one batch; answer with ``batchFinished(receipts:failure:now:stopping:)``.
        case write([SnapshotEntry])
        /// Perform this entry; `receipt` is its durable write, if it had one
        /// (a reload names the generation before it for `restore`).
        case perform(Payload, receipt: DeckSnapshots.SnapshotInfo?)
        /// The first failed write of a batch: say so once (the fails follow).
        case writeFailed(any Error)
        /// This entry's write failed, or it was built on one that did: perform its failure instead.
        case fail(Payload, error: any Error)
        /// After a failed batch: everything not on disk is forgotten; show every client the layout that is.
        case rolledBack
        /// Call ``timerFired(_:now:)`` with `generation` after `delay`.
        case armTimer(after: Duration, generation: Int)
        /// Too much waits: stop reading from this sender.
        case pause(ConnectionID)
        /// Little waits again: read from these senders again.
        case resume([ConnectionID])
    }

    /// Outcomes waiting beyond which senders are paused.
    let throttleHigh: Int
    /// The level at which paused senders resume.
    let throttleLow: Int
    private var pipeline: Pipeline
    private var gather: BatchGather
    private var paused: Set<ConnectionID> = []
    /// The generation of the armed timer, if one is armed.
    private var armed: Int?
    private var generation = 0

    init(window: Duration = .milliseconds(2), maximumBatch: Int = 256, throttleHigh: Int = 4096, throttleLow: Int = 1024) {
        pipeline = Pipeline(maximumBatch: maximumBatch)
        gather = BatchGather(window: window)
        self.throttleHigh = throttleHigh
        self.throttleLow = throttleLow
    }

    /// Entries accepted and not yet performed.
    var count: Int { pipeline.count }
    /// True when nothing waits.
    var isEmpty: Bool { pipeline.isEmpty }
    /// True while queued writes are held for awaited devices.
    var isHolding: Bool { pipeline.isHolding }
    /// The devices the held batch waits for.
    var awaited: Set<ConnectionID> { gather.awaited }
    /// The generation of the armed timer, nil when none is (it fired, or a release made it stale).
    var armedTimer: Int? { armed }

    /// Adds an outcome. `editor`: the client whose edit request `write` is
    /// (the next batch may wait for it) — nil for writes no device asked for
    /// (reloads, restores, profile switches). `sender` is paused when too much waits.
    mutating func submit(_ payload: Payload, write: SnapshotEntry? = nil, editor: ConnectionID? = nil,
                         sender: ConnectionID? = nil, now: ContinuousClock.Instant) -> [Action] {
        if write != nil { gather.queuedWrite(from: editor) }
        var actions = translate(pipeline.submit(payload, write: write))
        if write != nil { actions += armTimer(now: now) }
        if let sender, pipeline.count >= throttleHigh, paused.insert(sender).inserted { actions.append(.pause(sender)) }
        return actions
    }

    /// The disk thread finished the batch. While the host stops, the next
    /// batch is not held.
    mutating func batchFinished(receipts: [DeckSnapshots.SnapshotInfo], failure: (any Error)?, now: ContinuousClock.Instant,
                                stopping: Bool) -> [Action] {
        if !stopping, gather.batchFinished(now: now) { pipeline.hold() }
        return translate(pipeline.batchFinished(receipts: receipts, failure: failure)) + armTimer(now: now)
    }

    /// `device` sent an edit or left: ends the hold when it was the last
    /// one awaited or the window passed.
    mutating func heard(from device: ConnectionID, now: ContinuousClock.Instant) -> [Action] {
        guard pipeline.isHolding else { return [] }
        return gather.heard(from: device, now: now) ? release() : armTimer(now: now)
    }

    /// `connection` closed: it is heard from, and no longer paused.
    mutating func left(_ connection: ConnectionID, now: ContinuousClock.Instant) -> [Action] {
        paused.remove(connection)
        return heard(from: connection, now: now)
    }

    /// A timer of ``Action/armTimer(after:generation:)`` fired (one that a
    /// release made stale does nothing).
    mutating func timerFired(_ generation: Int, now: ContinuousClock.Instant) -> [Action] {
        guard armed == generation else { return [] }
        armed = nil
        return release()
    }

    /// Ends any hold: what is queued goes to the writer now.
    mutating func release() -> [Action] {
        armed = nil
        gather.ended()
        guard pipeline.isHolding else { return [] }
        return translate(pipeline.release())
    }

    /// Called once the host performed a list of actions: resumes the paused
    /// senders when little waits.
    mutating func settled() -> [Action] {
        guard pipeline.count < throttleLow, !paused.isEmpty else { return [] }
        let resumed = paused.sorted { $0.rawValue < $1.rawValue }
        paused.removeAll()
        return [.resume(resumed)]
    }

    /// While held with writes waiting, a timer ends the hold at the deadline.
    private mutating func armTimer(now: ContinuousClock.Instant) -> [Action] {
        guard pipeline.isHolding, armed == nil, pipeline.hasQueuedWrites, let deadline = gather.deadline else { return [] }
        let remaining = deadline - now
        if remaining <= .zero { return release() }
        generation += 1
        armed = generation
        return [.armTimer(after: remaining, generation: generation)]
    }

    private mutating func translate(_ actions: [Pipeline.Action]) -> [Action] {
        var result: [Action] = []
        var failed = false
        for action in actions {
            switch action {
            case .write(let batch):
                gather.batchStarted(count: batch.count)
                result.append(.write(batch))
            case .perform(let payload, let receipt):
                result.append(.perform(payload, receipt: receipt))
            case .fail(let payload, let error):
                if !failed { result.append(.writeFailed(error)) }
                failed = true
                result.append(.fail(payload, error: error))
            }
        }
        if failed {
            gather.queueDropped()
            result.append(.rolledBack)
        }
        return result
    }
}
