import Glibc

extension SnapshotStore {
    /// Appends a batch to the folders' open segments: one `pwrite` and one
    /// `fdatasync` per run of entries for the same folder, into a file that
    /// already exists (no rename, no folder flush). A run that fails is cut
    /// off again (`ftruncate` to where it began), and it and everything after
    /// it are not written — the same durable prefix a file batch gives.
    func commitToJournal(_ files: [PendingFile], failure: SnapshotError?, state: inout StoreState) -> SnapshotCommit {
        var failure = failure
        var written = 0
        var start = 0
        while start < files.count {
            let folder = files[start].folder
            var end = start
            while end < files.count, files[end].folder == folder { end += 1 }
            guard var appender = state.journals[folder] else { break }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(files[start..<end].reduce(0) { $0 + JournalFormat.recordHeaderSize + $1.payload.count })
            var locations: [(Int, JournalLocation)] = []
            for file in files[start..<end] {
                JournalFormat.appendRecord(generation: file.header.generation, payload: file.payload, header: appender.header,
                                           to: &bytes)
                locations.append((file.header.generation, JournalLocation(
                    segment: appender.name, offset: appender.end + bytes.count - file.payload.count, length: file.payload.count)))
            }
            let path = filePath(folder, name: appender.name)
            do throws(SnapshotError) {
                try Disk.writeAll(appender.descriptor, bytes, at: appender.end, path: path)
                try Disk.flushData(appender.descriptor, path: path)
            } catch {
                state.chains[folder] = nil
                // Nothing of this run may stay: a later append must not follow a torn record.
                appender.zeroedTo = appender.end
                state.journals[folder] = appender
                if ftruncate(appender.descriptor, off_t(appender.end)) != 0 || fdatasync(appender.descriptor) != 0 {
                    _ = close(appender.descriptor)
                    state.journals[folder] = nil
                    state.needsSegment.insert(folder)
                }
                failure = error
                break
            }
            appender.end += bytes.count
            appender.zeroedTo = max(appender.zeroedTo, appender.end)
            appender.records += locations.count
            appender.newest = locations.last
            state.journals[folder] = appender
            state.chains[folder] = files[end - 1].chain
            // In place: a copy out and back would copy the whole history
            // (up to a segment's worth of records) on every commit.
            for (generation, location) in locations {
                state.histories[folder, default: ProfileHistory()].add(generation, record: location)
            }
            written = end
            start = end
        }
        if failure == nil, written < files.count { failure = .invalidEntry("no journal segment is open for the profile") }
        for folder in Set(files.prefix(written).map(\.folder)) { applyRetention(folder, state: &state) }
        var notices = retention.takeNotices() + state.maintenanceNotices
        state.maintenanceNotices.removeAll()
        for folder in Set(files.map(\.folder)) {
            notices += state.histories[folder]?.notices ?? []
            state.histories[folder]?.notices.removeAll()
        }
        return SnapshotCommit(written: files.prefix(written).map { $0.header.info(bytes: $0.payload.count) },
                              failure: failure, notices: notices)
    }

    /// Work that must not delay an acknowledgement, for the writer to call
    /// right after handing a commit back: a folder without a segment gets one
    /// (after its newest generation went to a file), and a segment past
    /// ``JournalSettings`` gets a checkpoint — its newest generation written
    /// as a snapshot file — and a new segment after it. Failures are reported
    /// in the next commit's notices; appends go on where they were.
    public func maintain() {
        guard let settings = journal else { return }
        state.withLock { state in
            // One attempt per folder and file commit: a folder whose start
            // failed keeps writing files, and its next file commit asks again
            // (retrying after every commit of *any* folder cost each edit a
            // failed create and a warning: docs/performance.md, issue 28).
            let waiting = state.needsSegment.sorted()
            state.needsSegment.removeAll()
            for folder in waiting {
                guard let history = state.histories[folder], history.highest > 0 else { continue }
                startSegment(folder, base: history.highest, state: &state)
            }
            for (folder, appender) in state.journals.sorted(by: { $0.key < $1.key })
            where appender.records >= settings.recordsPerSegment || appender.end >= settings.bytesPerSegment {
                guard let newest = appender.newest, checkpoint(folder, newest, state: &state) else { continue }
                _ = startSegment(folder, base: newest.generation, state: &state)
            }
            for folder in state.journals.keys.sorted() { preallocate(folder, settings: settings, state: &state) }
        }
    }

    /// Writes each folder's newest generation as a snapshot file when it is
    /// only a record, so that a stopped store's newest generation is a plain
    /// gzip file (deckd calls it on a clean stop). Appends go on in the same segment.
    public func checkpoint() {
        state.withLock { state in
            for (folder, appender) in state.journals.sorted(by: { $0.key < $1.key }) {
                if let newest = appender.newest { _ = checkpoint(folder, newest, state: &state) }
            }
        }
    }

    /// Whether every profile's newest generation has its snapshot file (no
    /// generation is a journal record only): what ``checkpoint()`` would write.
    public var newestGenerationsHaveFiles: Bool {
        state.withLock { state in
            state.journals.allSatisfy { folder, appender in
                guard let newest = appender.newest else { return true }
                return state.histories[folder]?.names[newest.generation] != nil
            }
        }
    }

    /// The record's document as `0000000042.json.gz` (gzipped at level 6 if
    /// the record holds it as it is); true once durable (or already there).
    private func checkpoint(_ folder: String, _ newest: (generation: Int, location: JournalLocation),
                            state: inout StoreState) -> Bool {
        if state.histories[folder]?.names[newest.generation] != nil { return true }
        let name = Self.fileName(generation: newest.generation)
        do throws(SnapshotError) {
            guard let payload = try readRecord(folder, newest.location), !payload.isEmpty else {
                throw .invalidEntry("its journal record could not be read back")
            }
            let bytes: [UInt8]
            if JournalPayload.isRaw(payload), payload.firstRange(of: SnapshotDocument.editsAfterMarker) != nil {
                // Its edits continue earlier records': a file carries them whole.
                switch try wholeRecord(folder: folder, generation: newest.generation, at: newest.location, state: &state) {
                case .intact(let snapshot)?:
                    let info = snapshot.info
                    let header = SnapshotHeader(profile: info.profile, generation: info.generation, revision: info.revision,
                                                time: info.time, reason: info.reason, source: info.source)
                    bytes = try state.deflater.gzip(SnapshotDocument.encode(header, layout: snapshot.layout,
                                                                            edits: snapshot.edits ?? []))
                case .damaged(let notice)?:
                    state.maintenanceNotices.append(notice)
                    throw .invalidEntry("its journal record is damaged")
                case nil:
                    throw .invalidEntry("its journal record could not be read back")
                }
            } else {
                bytes = JournalPayload.isRaw(payload) ? try state.deflater.gzip(payload) : payload
            }
            try Disk.replaceDurably(folder: folderPath(folder), name: name, bytes: bytes)
            state.histories[folder]?.add(newest.generation, name: name)
            return true
        } catch {
            state.maintenanceNotices.append(SnapshotNotice(
                kind: .retentionFailed, profile: ProfileFolderName.decode(folder), generation: newest.generation,
                message: "could not write the checkpoint \(folder)/\(name): \(error); the journal still holds it"))
            return false
        }
    }

    /// Creates `BASE.journal` with its header, durable with its folder, and appends go there from now on.
    @discardableResult
    private func startSegment(_ folder: String, base: Int, state: inout StoreState) -> Bool {
        let name = JournalFormat.fileName(base: base)
        let path = filePath(folder, name: name)
        var random = SystemRandomNumberGenerator()
        let header = JournalFormat.FileHeader(version: journal?.segmentVersion ?? JournalFormat.version, salt1: random.next(), salt2: random.next(),
                                              base: UInt64(base))
        var descriptor: Int32 = -1
        do throws(SnapshotError) {
            // Whole or not at all, as a snapshot file: a kill between creating
            // the file and flushing its header must not leave a header-less
            // segment, which the next start would have to call damage.
            guard !Disk.exists(path) else { throw .system(operation: "create", path: path, code: EEXIST) }
            try Disk.replaceDurably(folder: folderPath(folder), name: name, bytes: header.encoded())
            descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { throw .system(operation: "open", path: path, code: errno) }
        } catch {
            state.maintenanceNotices.append(SnapshotNotice(
                kind: .retentionFailed, profile: ProfileFolderName.decode(folder), generation: nil,
                message: "could not start the journal segment \(folder)/\(name): \(error); generations are written as files meanwhile"))
            return false
        }
        if let old = state.journals[folder] {
            // Nothing is appended to it again: its zeros go (unflushed; a crash
            // that keeps them leaves a tail every scan accepts).
            if old.zeroedTo > old.end { _ = ftruncate(old.descriptor, off_t(old.end)) }
            _ = close(old.descriptor)
        }
        // A segment's first record carries its edits whole.
        state.chains[folder] = nil
        state.journals[folder] = JournalAppender(name: name, descriptor: descriptor, header: header,
                                                 end: JournalFormat.fileHeaderSize, zeroedTo: JournalFormat.fileHeaderSize,
                                                 records: 0, newest: nil)
        if let journal { preallocate(folder, settings: journal, state: &state) }
        return true
    }

    /// Grows a version-3 segment's zeros ahead of its records by
    /// ``JournalSettings/preallocation`` once less than half of that is left
    /// (docs/snapshots.md, "Zeros ahead of the records"). The zeros are
    /// flushed now, after an `ok`, so that the next appends find blocks that
    /// exist. When they cannot be written, the file is cut back to where they
    /// began and appends extend it, as in version 2.
    private func preallocate(_ folder: String, settings: JournalSettings, state: inout StoreState) {
        guard settings.preallocation > 0, var appender = state.journals[folder], appender.header.version >= 3,
              appender.zeroedTo - appender.end < settings.preallocation / 2 else { return }
        let from = appender.zeroedTo
        let to = from + settings.preallocation
        let zeros = [UInt8](repeating: 0, count: min(settings.preallocation, 256 << 10))
        var at = from
        var written = true
        while at < to, written {
            let count = min(zeros.count, to - at)
            let result = zeros.withUnsafeBytes { pwrite(appender.descriptor, $0.baseAddress!, count, off_t(at)) }
            if result < 0 && errno == EINTR { continue }
            if result <= 0 { written = false } else { at += result }
        }
        if written && fdatasync(appender.descriptor) == 0 {
            appender.zeroedTo = to
        } else {
            _ = ftruncate(appender.descriptor, off_t(from))
        }
        state.journals[folder] = appender
    }

    /// Segments none of whose records are kept any more, except the open one: retention deletes them.
    func retiredSegments(_ folder: String, touched: Set<String>, state: StoreState) -> [String] {
        let open = state.journals[folder]?.name
        // Almost always only the open segment was touched: then nothing can
        // retire, and the set of live segments below (a hash of every kept
        // record's segment name) is not built — it was ~70 K instructions an edit.
        let candidates = touched.filter { $0 != open }
        guard !candidates.isEmpty, let history = state.histories[folder] else { return [] }
        let live = Set(history.records.values.map(\.segment))
        return candidates.filter { !live.contains($0) }.sorted()
    }
}
