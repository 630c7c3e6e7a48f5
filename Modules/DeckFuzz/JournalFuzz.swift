import DeckSnapshots
import Glibc

/// A journal segment (docs/snapshots.md, "The journal"), two ways in, chosen
/// by the first byte:
///
/// - odd: the rest is a whole segment file. Properties: when its header
///   decodes, the scan ends inside the file, its records follow one another
///   from the header on with rising generations above the header's base, and
///   the file cut where the scan ended (what recovery keeps) scans to the
///   same records with nothing wrong.
/// - even: the next byte picks the format (1–3), the one after it the
///   segment's base generation (no snapshot file of it is there), and the
///   rest is record payloads, each a 2-byte big-endian length and its bytes,
///   framed with true checksums as the generations after the base — so the
///   fuzzer reaches the
///   documents inside the records, not only their checksums — and written as
///   a profile's only segment in a fresh state folder. Properties: opening
///   the store and reading never fail as if the machine were at fault; the
///   newest snapshot reads back equal by its generation; every generation
///   `list` shows reads, or is refused as damaged (also when an earlier
///   read refused it along with its own); and a second store opened
///   on what the first left (a restart after recovery, or a crash in it)
///   resumes the same generation with the same layout.
enum JournalFuzz {
    static let profile = "default"
    static let maximumRecords = 16
    static let salts: (UInt32, UInt32) = (0x5EED_0001, 0x5EED_0002)

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        guard let mode = bytes.first else { return }
        if mode & 1 == 1 {
            try checkScan(Array(bytes.dropFirst()))
        } else if bytes.count >= 3 {
            try checkStore(version: 1 + UInt32(bytes[1] % 3), base: Int(bytes[2]), payloads: payloads(bytes.dropFirst(3)))
        }
    }

    // MARK: A whole segment

    private static func checkScan(_ file: [UInt8]) throws(FuzzFinding) {
        let header: JournalFormat.FileHeader
        do throws(JournalFormat.HeaderProblem) {
            header = try JournalFormat.decodeHeader(file[...])
        } catch {
            return
        }
        let limit = 1 << 20
        let scan = JournalFormat.scan(file, header: header, limit: limit)
        try require(scan.end >= JournalFormat.fileHeaderSize && scan.end <= file.count,
                    "the scan ended at byte \(scan.end) of a \(file.count)-byte segment")
        var next = JournalFormat.fileHeaderSize
        var previous = Int(clamping: header.base)
        for record in scan.records {
            try require(record.offset == next + JournalFormat.recordHeaderSize && record.length <= limit,
                        "a record at \(record.offset) of \(record.length) bytes does not follow the one before (which ended at \(next))")
            try require(record.generation > previous, "generation \(record.generation) came after \(previous)")
            next = record.offset + record.length
            previous = record.generation
        }
        try require(next == scan.end, "the records end at \(next) but the scan says \(scan.end)")
        let kept = JournalFormat.scan(Array(file[..<scan.end]), header: header, limit: limit)
        try require(kept.records == scan.records && kept.problem == nil,
                    "the segment cut where its scan ended scans to \(kept.records.count) records (problem: \(kept.problem ?? "none")), not \(scan.records.count)")
        if scan.problem == nil, scan.end < file.count {
            try require(header.version >= 3 && file[scan.end...].allSatisfy { $0 == 0 },
                        "the scan left bytes after byte \(scan.end) unread and unrefused")
        }
    }

    // MARK: Records, recovered by the store

    static func payloads(_ rest: ArraySlice<UInt8>) -> [[UInt8]] {
        var payloads: [[UInt8]] = []
        var at = rest.startIndex
        while at + 2 <= rest.endIndex, payloads.count < maximumRecords {
            let length = Int(rest[at]) << 8 | Int(rest[at + 1])
            let end = min(rest.endIndex, at + 2 + length)
            payloads.append(Array(rest[(at + 2)..<end]))
            at = end
        }
        return payloads
    }

    /// The segment of `payloads` as the generations after `base`.
    static func segment(version: UInt32, base: Int, payloads: [[UInt8]]) -> [UInt8] {
        let header = JournalFormat.FileHeader.of(version: version, salts: salts, base: UInt64(base))
        var bytes = header.encoded()
        for (index, payload) in payloads.enumerated() {
            JournalFormat.appendRecord(generation: base + index + 1, payload: payload, header: header, to: &bytes)
        }
        return bytes
    }

    static func checkStore(version: UInt32, base: Int, payloads: [[UInt8]]) throws(FuzzFinding) {
        let state = try StateFolder()
        defer { state.remove() }
        try state.write(segment(version: version, base: base, payloads: payloads),
                        as: "snapshots/\(profile)/" + JournalFormat.fileName(base: base))
        let first = try recover(state.path)
        let again = try recover(state.path)
        try require(first?.info.generation == again?.info.generation && first?.layout == again?.layout,
                    "a second start resumed generation \(again.map { String($0.info.generation) } ?? "none") where the first resumed \(first.map { String($0.info.generation) } ?? "none")")
    }

    /// What one start of a store on `state` resumes, checked against `read` and `list`.
    static func recover(_ state: String) throws(FuzzFinding) -> Snapshot? {
        let store: SnapshotStore
        let newest: Snapshot?
        let listed: [SnapshotInfo]
        do throws(SnapshotError) {
            store = try SnapshotStore(stateDirectory: state, journal: JournalSettings())
            newest = try store.newest(profile: profile).snapshot
            listed = try store.list(profile: profile).snapshots
        } catch {
            throw unexpected(error)
        }
        // Retention's deletions run in the background: the folder is removed after this start only.
        defer { store.finishDeletions() }
        if let newest {
            let read: Snapshot
            do throws(SnapshotError) {
                read = try store.read(profile: profile, generation: newest.info.generation)
            } catch {
                throw unexpected(error)
            }
            try require(read.layout == newest.layout,
                        "generation \(newest.info.generation) reads back different from how newest found it")
        }
        // A refusal takes along every generation its walk passed, the damaged record's own included:
        // one listed after it is then refused again when read, with the same notice.
        for info in listed {
            do throws(SnapshotError) {
                _ = try store.read(profile: profile, generation: info.generation)
            } catch {
                guard case .corrupt = error else { throw unexpected(error) }
            }
        }
        return newest
    }

    private static func unexpected(_ error: SnapshotError) -> FuzzFinding {
        switch error {
        case .system, .shortWrite, .stateInUse, .invalidMarker:
            FuzzFinding("recovering the journal failed as if the machine were at fault: \(error)")
        default:
            FuzzFinding("recovering the journal threw where it should report damage and go on: \(error)")
        }
    }
}

/// A fresh state folder under the temporary directory, for one input.
struct StateFolder {
    let path: String

    init() throws(FuzzFinding) {
        var template = Array("/tmp/deck-fuzz-journal-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw FuzzFinding("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    func write(_ bytes: [UInt8], as name: String) throws(FuzzFinding) {
        let file = path + "/" + name
        do throws(SnapshotError) {
            try Disk.makeDirectories(String(file[..<file.lastIndex(of: "/")!]))
        } catch {
            throw FuzzFinding("making the state folder failed: \(error)")
        }
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw FuzzFinding("open \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw FuzzFinding("write \(file): \(written) of \(bytes.count) bytes") }
    }

    /// Removes the folder and everything the store made in it.
    func remove() { Self.remove(path) }

    private static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? Disk.entries(of: path)) ?? [] { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
