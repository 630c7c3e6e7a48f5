import DeckModel
import Glibc
import Synchronization

/// The snapshot history of every profile under `STATE/snapshots/` (PROFILE.md §6).
///
/// One gzip file per generation, `STATE/snapshots/PROFILE/0000000042.json.gz`,
/// written durably and atomically — or, with ``JournalSettings``, one
/// checksummed record per generation appended to `PROFILE/BASE.journal`, with
/// checkpoints as files; damaged files are renamed `.corrupt` and skipped,
/// a damaged journal tail is cut and kept; the newest `keep` generations of
/// each profile stay.
///
/// Threads: every method does file I/O, so call the store from a writer thread,
/// never from an event loop. It is `Sendable` and safe from any thread — a
/// `Mutex` serializes calls, which also keeps generation numbers gap-free —
/// but it is built for one caller at a time: a call waits while another flushes.
///
/// One store per state folder: opening takes an exclusive `flock` on
/// `STATE/snapshots/.lock`, so a second deckd on the same folder is refused
/// instead of overwriting generations the first one acknowledged. The store
/// owns the folder: its reads recover (damaged files set aside, a torn
/// journal tail cut) and keep only `keep` generations, so a tool that only
/// looks at a stopped host's history opens it with `keep: Int.max`
/// (docs/snapshots.md, "Inspecting by hand").
public final class SnapshotStore: Sendable {
    /// How many generations of each profile are kept when `--keep` is not given.
    public static let defaultKeep = 100
    /// The width generation numbers are zero-padded to in file names (any width is read).
    public static let generationDigits = 10

    /// The state folder the store was opened on.
    public let stateDirectory: String
    /// `STATE/snapshots`.
    public let snapshotsDirectory: String
    /// Generations kept per profile.
    public let keep: Int
    /// How generations are appended to a journal; nil: one file each.
    public let journal: JournalSettings?
    /// What opening found and cleaned up (temporary files of interrupted writes).
    public let openingNotices: [SnapshotNotice]

    /// Held open for the store's lifetime; closing it releases the `flock`.
    private let lockDescriptor: Int32
    let state: Mutex<StoreState>
    /// Deletes generations beyond `keep` in the background.
    let retention = RetentionWorker()

    /// The largest compressed file and the largest inflated document the store
    /// reads: far above a 10,000-page layout, low enough that a damaged or
    /// hostile file cannot make the host allocate without bound.
    static let fileLimit = 256 << 20
    static let documentLimit = 1 << 30

    /// Opens (creating if needed) the store in `stateDirectory`, locks it, and
    /// removes temporary files that a crash left behind. With `journal`,
    /// generations are appended to journal segments (docs/snapshots.md);
    /// segments already there are read either way.
    ///
    /// - Throws: `invalidKeep` for `keep < 1`; `stateInUse` when another store
    ///   holds the folder; `system` when a folder cannot be created or read.
    public init(stateDirectory: String, keep: Int = SnapshotStore.defaultKeep,
                journal: JournalSettings? = nil) throws(SnapshotError) {
        guard keep >= 1 else { throw .invalidKeep(keep) }
        let root = stateDirectory.count > 1 && stateDirectory.hasSuffix("/")
            ? String(stateDirectory.dropLast()) : stateDirectory
        let snapshots = root + "/snapshots"
        try Disk.makeDirectories(snapshots)
        let lockPath = snapshots + "/.lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system(operation: "open lock file", path: lockPath, code: errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            _ = close(fd)
            if code == EWOULDBLOCK { throw .stateInUse(path: root) }
            throw .system(operation: "lock", path: lockPath, code: code)
        }
        do {
            openingNotices = try Self.removeLeftovers(root: root, snapshots: snapshots)
        } catch {
            _ = close(fd)
            throw error
        }
        self.stateDirectory = root
        self.snapshotsDirectory = snapshots
        self.keep = keep
        self.journal = journal
        self.lockDescriptor = fd
        self.state = Mutex(StoreState())
    }

    /// Waits until every old generation that retention dropped so far is
    /// deleted. Call before the process exits: the deletions run in the
    /// background, and an exit does not wait for them (nor for `deinit`, when
    /// something still holds the store), which would leave more than `keep`
    /// files after a clean stop.
    public func finishDeletions() {
        retention.wait()
    }

    deinit {
        // Finish background deletions while the folder is still ours: nothing
        // of this store touches the disk once the next owner may have it.
        retention.wait()
        state.withLock { state in
            for appender in state.journals.values { _ = close(appender.descriptor) }
            state.journals.removeAll()
        }
        // Unlock before closing: a child forked by another thread may still hold a
        // duplicate of this descriptor until it execs, and close alone would
        // leave the lock held through that duplicate.
        _ = flock(lockDescriptor, LOCK_UN)
        _ = close(lockDescriptor)
    }

    /// Temporary files start with this; nothing else the store writes does.
    static let temporaryPrefix = ".tmp-"

    /// Deletes `.tmp-*` files in every profile folder and the marker's temporary
    /// files in the state folder. They were never renamed into place, so no
    /// acknowledged write lives in them.
    private static func removeLeftovers(root: String, snapshots: String) throws(SnapshotError) -> [SnapshotNotice] {
        var notices: [SnapshotNotice] = []
        var folders = [(path: root, label: root, prefix: temporaryPrefix + LastProfileMarker.fileName)]
        for name in try Disk.entries(of: snapshots) where !name.hasPrefix(".") {
            folders.append((snapshots + "/" + name, "snapshots/" + name, temporaryPrefix))
        }
        for folder in folders {
            var removed = 0
            var failed: [String] = []
            for name in try Disk.entries(of: folder.path) where name.hasPrefix(folder.prefix) {
                let code = Disk.remove(folder.path + "/" + name)
                if code == 0 { removed += 1 } else { failed.append("\(name) (\(SnapshotError.explain(code)))") }
            }
            if removed > 0 {
                notices.append(SnapshotNotice(
                    kind: .leftoverRemoved, profile: nil, generation: nil,
                    message: "removed \(removed) temporary file\(removed == 1 ? "" : "s") of an interrupted snapshot write in \(folder.label)"))
            }
            if !failed.isEmpty {
                notices.append(SnapshotNotice(
                    kind: .leftoverRemoved, profile: nil, generation: nil,
                    message: "could not remove temporary files in \(folder.label): \(failed.joined(separator: ", "))"))
            }
        }
        return notices
    }

    // MARK: Names

    /// `0000000042.json.gz`.
    static func fileName(generation: Int) -> String {
        let digits = String(generation)
        return String(repeating: "0", count: max(0, generationDigits - digits.count)) + digits + ".json.gz"
    }

    /// The generation a snapshot file name carries, and whether it is an intact
    /// final name (`42.json.gz`, any width) rather than a set-aside one (`….corrupt`).
    static func parseFileName(_ name: String) -> (generation: Int, isFinal: Bool)? {
        let digits = name.utf8.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard !digits.isEmpty, significant.count <= 18,
              let generation = significant.isEmpty ? 0 : Int(String(decoding: significant, as: UTF8.self))
        else { return nil }
        let rest = name.utf8.dropFirst(digits.count)
        guard rest.starts(with: ".json.gz".utf8) else { return nil }
        return (generation, rest.count == ".json.gz".utf8.count)
    }

    func folderPath(_ folder: String) -> String { snapshotsDirectory + "/" + folder }

    func filePath(_ folder: String, name: String) -> String { folderPath(folder) + "/" + name }
}

/// What the store remembers between calls, behind its mutex.
struct StoreState: Sendable {
    /// Per profile folder, loaded on first use by listing the folder.
    var histories: [String: ProfileHistory] = [:]
    /// The last-profile marker as last read or written; nil until then.
    var marker: String??
    /// Profile folders known to exist, so a write skips `mkdir`.
    var existingFolders: Set<String> = []
    /// The deflate stream every write reuses (see ``GzipDeflater``).
    let deflater = GzipDeflater()
    /// The same for journal records, at ``ZlibCodec/recordLevel``.
    let recordDeflater = GzipDeflater(level: ZlibCodec.recordLevel)
    /// Per profile folder, the journal segment appends go to.
    var journals: [String: JournalAppender] = [:]
    /// Folders whose newest generation went to a file because no segment was
    /// open: ``SnapshotStore/maintain()`` starts one.
    var needsSegment: Set<String> = []
    /// Checkpoint or segment failures, for the next commit's notices.
    var maintenanceNotices: [SnapshotNotice] = []
    /// Per profile folder, the JSON of the edits its last whole document carried.
    var editJSON: [String: EditJSONCache] = [:]
    /// Per profile folder with an open version-3 segment, the last record
    /// appended to it in this run: the next generation whose edits begin
    /// with that record's is written with only the edits it adds.
    var chains: [String: EditChain] = [:]
    /// Per profile folder, the generations refused in this run for a record
    /// whose document is refused (``SnapshotStore/refuseRecord``), with the
    /// notice that said why: reading one again answers it, not "not found".
    var refusals: [String: [Int: SnapshotNotice]] = [:]
}

/// The last record of a segment whose successor may carry only the edits it
/// adds (docs/snapshots.md, "Records that add edits").
struct EditChain: Sendable {
    /// How many records in a row may continue another's edits: reading one
    /// back reads at most this many more (a folded list, a reload or a
    /// restore starts anew sooner: their edits do not extend the last ones).
    static let maximumLength = 64

    var generation: Int
    /// Every edit its generation carries, whole.
    var edits: [DeckEdit]
    /// How many records before it continue in a row (0: it carries its edits whole).
    var length: Int
}

/// The generation numbers present in one profile folder.
struct ProfileHistory: Sendable {
    /// Intact final names by generation. Files renamed `.corrupt` leave this map.
    private(set) var names: [Int: String] = [:]
    /// Generations held as journal records (a generation that also has a
    /// file is read from the file: a checkpoint's file is authoritative).
    private(set) var records: [Int: JournalLocation] = [:]
    /// Every record of the segments still on disk, generations retention
    /// forgot included: a version-3 record's edits may continue one of those
    /// (docs/snapshots.md, "Records that add edits"), so its place is kept
    /// until its segment is deleted or cut.
    private(set) var segmentRecords: [Int: JournalLocation] = [:]
    /// The highest number any file name has carried, `.corrupt` ones included,
    /// so a number is never handed out twice.
    var highest = 0
    /// What loading the folder's journal found (cut tails, set-aside
    /// segments), for the next call that reports notices.
    var notices: [SnapshotNotice] = []

    /// The intact generations, oldest first, kept sorted as they change: a
    /// journal holds up to ~100,000 of them, and sorting them on every
    /// commit's retention cost more than the commit.
    private(set) var generations: [Int] = []

    var count: Int { generations.count }

    mutating func add(_ generation: Int, name: String) {
        names[generation] = name
        insert(generation)
    }

    mutating func add(_ generation: Int, record: JournalLocation) {
        records[generation] = record
        segmentRecords[generation] = record
        insert(generation)
    }

    /// A segment's records as a scan found them; a generation that has a file
    /// keeps reading from the file (a checkpoint's file is authoritative).
    mutating func addRecords(_ found: [JournalFormat.Record], segment: String) {
        // Reserved up front: growing the table step by step rehashed it ~17 times for 100,000 records.
        records.reserveCapacity(records.count + found.count)
        segmentRecords.reserveCapacity(segmentRecords.count + found.count)
        generations.reserveCapacity(generations.count + found.count)
        for record in found {
            let location = JournalLocation(segment: segment, offset: record.offset, length: record.length)
            if names[record.generation] == nil { add(record.generation, record: location) } else { segmentRecords[record.generation] = location }
        }
    }

    /// A segment retention deletes: its records can no longer be read.
    mutating func forgetSegment(_ segment: String) {
        segmentRecords = segmentRecords.filter { $0.value.segment != segment }
    }

    mutating func remove(_ generation: Int) {
        let hadName = names.removeValue(forKey: generation) != nil
        let hadRecord = records.removeValue(forKey: generation) != nil
        if hadName || hadRecord { removeFromOrder(generation) }
    }

    /// Forgets the oldest `count` generations; returns them.
    mutating func removeOldest(_ count: Int) -> ArraySlice<Int> {
        let doomed = generations.prefix(count)
        for generation in doomed {
            names[generation] = nil
            records[generation] = nil
        }
        generations.removeFirst(doomed.count)
        return doomed
    }

    /// Forgets every record of `segment` from byte `offset` on (a cut tail).
    mutating func removeRecords(of segment: String, from offset: Int) {
        segmentRecords = segmentRecords.filter { $0.value.segment != segment || $0.value.offset < offset }
        let cut = records.filter { $0.value.segment == segment && $0.value.offset >= offset }.keys
        for generation in cut {
            records[generation] = nil
            // A generation with a file stays: the file is authoritative.
            if names[generation] == nil { removeFromOrder(generation) }
        }
    }

    private mutating func removeFromOrder(_ generation: Int) {
        let index = position(of: generation)
        if index < generations.count, generations[index] == generation { generations.remove(at: index) }
    }

    private mutating func insert(_ generation: Int) {
        highest = max(highest, generation)
        if let last = generations.last, last >= generation {
            let index = position(of: generation)
            if index < generations.count, generations[index] == generation { return }
            generations.insert(generation, at: index)
        } else {
            generations.append(generation)
        }
    }

    /// The first index whose generation is not below `generation`.
    private func position(of generation: Int) -> Int {
        var low = 0, high = generations.count
        while low < high {
            let middle = (low + high) / 2
            if generations[middle] < generation { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension SnapshotStore {
    /// The history of `folder`, listing it on first use.
    func history(_ folder: String, in state: inout StoreState) throws(SnapshotError) -> ProfileHistory {
        if let known = state.histories[folder] { return known }
        var history = ProfileHistory()
        var segments: [(base: Int, name: String)] = []
        for name in try Disk.entries(of: folderPath(folder)) {
            if let base = JournalFormat.base(ofFileName: name) { segments.append((base, name)) }
            guard let parsed = Self.parseFileName(name) else { continue }
            history.highest = max(history.highest, parsed.generation)
            if parsed.isFinal { history.add(parsed.generation, name: name) }
        }
        try loadJournal(folder, segments: segments.sorted { $0.base < $1.base }, into: &history, state: &state)
        state.histories[folder] = history
        return history
    }
}
