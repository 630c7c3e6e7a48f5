import Dispatch
import Synchronization

/// Deletes generations that retention dropped, off the writer's path.
///
/// On the development machine an unlink costs ~0.15 ms, a third of a whole
/// group-committed write per edit; doing it here keeps it out of the time
/// before an edit is acknowledged. Safe to lose: the store has already
/// forgotten these generations, and a file that survives a crash is found
/// again when the store opens and deleted by the next write's retention.
final class RetentionWorker: Sendable {
    private let queue = DispatchQueue(label: "deck.snapshots.retention", qos: .utility)
    private let failures = Mutex<[SnapshotNotice]>([])

    /// Deletes `files` (path, label for the notice, generation) in the background.
    func delete(_ files: [(path: String, label: String, generation: Int)]) {
        guard !files.isEmpty else { return }
        queue.async {
            for file in files {
                let code = Disk.remove(file.path)
                guard code != 0 else { continue }
                let notice = SnapshotNotice(
                    kind: .retentionFailed, profile: nil, generation: file.generation,
                    message: "could not delete old snapshot \(file.label): \(SnapshotError.explain(code)); it is deleted after the next restart")
                self.failures.withLock { $0.append(notice) }
            }
        }
    }

    /// Failures since the last call, for the next commit to report.
    func takeNotices() -> [SnapshotNotice] {
        failures.withLock { notices in
            defer { notices.removeAll() }
            return notices
        }
    }

    /// Waits until every deletion asked for so far is done.
    func wait() {
        queue.sync {}
    }
}
