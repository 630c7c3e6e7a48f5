/// The ordered road from "accepted" to "acknowledged", with group commit
/// (ARCHITECTURE.md, one edit's data flow).
///
/// Every outcome the host produces (a reply, a broadcast, an event) is an
/// entry here, in arrival order. An entry may carry a write (a snapshot
/// generation) that must be durable before the entry is performed. Entries
/// are performed strictly in order, and only once every write up to them is
/// on disk — so replies to each client stay in request order, layouts go out
/// in revision order, and no `ok` precedes its fsync.
///
/// One batch is with the writer at a time. It takes every write queued so
/// far, and while its flush runs the next batch accumulates: edits that
/// arrive together share fsyncs. When nothing is waiting, an outcome without
/// a write is performed at once.
///
/// The host may *hold* the next batch for a moment (``hold()`` /
/// ``release()``): writes keep queuing and go as one batch when released. It
/// does so right after a batch, while devices that were just acknowledged are
/// about to send their next edits (BatchGather.swift, driven by CommitScheduler).
///
/// A swift-nio style state machine: inputs return actions that the host
/// performs; nothing here does I/O, so tests drive it directly.
struct CommitPipeline<Payload, Write, Receipt> {
    /// What the host must do, in the order given.
    enum Action {
        /// Hand these writes to the writer as one batch; answer with ``batchFinished(receipts:failure:)``.
        case write([Write])
        /// Perform this entry's effects; `receipt` is its durable write, if it had one.
        case perform(Payload, receipt: Receipt?)
        /// This entry's write failed, or it was built on a write that did:
        /// tell its sender nothing changed. `error` says why.
        case fail(Payload, error: any Error)
    }

    private enum Stage {
        case noWrite
        case queued
        case writing
        case durable(Receipt)
        case failed(any Error)
    }

    private struct Entry {
        var payload: Payload
        var write: Write?
        var stage: Stage
    }

    /// The most writes handed over in one batch, so one batch never takes
    /// unboundedly long and acknowledgements keep flowing.
    let maximumBatch: Int
    private var entries: [Entry] = []
    private var front = 0
    private var writing = 0
    private var holding = false

    init(maximumBatch: Int = 256) {
        self.maximumBatch = max(1, maximumBatch)
    }

    /// Entries accepted and not yet performed.
    var count: Int { entries.count - front }
    /// True when nothing waits: the next outcome without a write is performed at once.
    var isEmpty: Bool { count == 0 }
    /// True while a batch is with the writer.
    var isWriting: Bool { writing > 0 }
    /// True while queued writes wait for ``release()``.
    var isHolding: Bool { holding }
    /// True when writes wait for the writer (behind a batch, or held).
    var hasQueuedWrites: Bool {
        entries[front...].contains { if case .queued = $0.stage { true } else { false } }
    }

    /// From now on, queued writes wait for ``release()`` instead of going to
    /// the writer as soon as it is free.
    mutating func hold() {
        holding = true
    }

    /// Ends a ``hold()``: what is queued goes to the writer if it is free.
    mutating func release() -> [Action] {
        holding = false
        return writing == 0 ? nextBatch() : []
    }

    /// Adds an outcome; `write` is the generation it needs on disk first.
    mutating func submit(_ payload: Payload, write: Write? = nil) -> [Action] {
        guard let write else {
            if isEmpty { return [.perform(payload, receipt: nil)] }
            entries.append(Entry(payload: payload, write: nil, stage: .noWrite))
            return []
        }
        entries.append(Entry(payload: payload, write: write, stage: .queued))
        return writing == 0 && !holding ? nextBatch() : []
    }

    /// The writer finished the batch: `receipts` for the leading writes that
    /// are durable (in order), `failure` when the rest were not written.
    mutating func batchFinished(receipts: [Receipt], failure: (any Error)?) -> [Action] {
        var pending = receipts[...]
        var index = front
        var batchLeft = writing
        while batchLeft > 0, index < entries.count {
            if case .writing = entries[index].stage {
                batchLeft -= 1
                if let receipt = pending.popFirst() {
                    entries[index].stage = .durable(receipt)
                } else {
                    // A batch must report a receipt for every write or a failure.
                    entries[index].stage = .failed(failure ?? MissingReceipt())
                }
            }
            index += 1
        }
        writing = 0
        if let failure {
            // Everything queued after a failed write was computed on top of it.
            for later in front..<entries.count {
                if case .queued = entries[later].stage { entries[later].stage = .failed(failure) }
            }
        }
        var actions = drainReady()
        if writing == 0 && !holding { actions += nextBatch() }
        return actions
    }

    /// Performs entries from the front while they are ready.
    private mutating func drainReady() -> [Action] {
        var actions: [Action] = []
        loop: while front < entries.count {
            let entry = entries[front]
            switch entry.stage {
            case .noWrite: actions.append(.perform(entry.payload, receipt: nil))
            case .durable(let receipt): actions.append(.perform(entry.payload, receipt: receipt))
            case .failed(let error): actions.append(.fail(entry.payload, error: error))
            case .queued, .writing: break loop
            }
            front += 1
        }
        if front == entries.count {
            entries.removeAll(keepingCapacity: entries.count <= 1024)
            front = 0
        } else if front > 1024, front * 2 > entries.count {
            entries.removeFirst(front)
            front = 0
        }
        return actions
    }

    /// Hands every queued write (up to the batch limit) to the writer.
    private mutating func nextBatch() -> [Action] {
        var batch: [Write] = []
        for index in front..<entries.count where batch.count < maximumBatch {
            guard case .queued = entries[index].stage, let write = entries[index].write else { continue }
            entries[index].stage = .writing
            batch.append(write)
        }
        writing = batch.count
        return batch.isEmpty ? [] : [.write(batch)]
    }

    /// A batch that reported neither a receipt nor a failure for a write.
    struct MissingReceipt: Error, CustomStringConvertible {
        var description: String { "the snapshot writer did not report this write" }
    }
}
