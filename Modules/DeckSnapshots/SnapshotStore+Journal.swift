import Glibc

/// How a store appends generations to a journal instead of writing a file
/// for each (docs/snapshots.md, "The journal").
public struct JournalSettings: Sendable, Hashable {
    /// After this many records in a segment, the newest generation is written
    /// as a snapshot file and a new segment begins.
    public var recordsPerSegment: Int
    /// The same after this many bytes.
    public var bytesPerSegment: Int
    /// How many bytes of zeros a version-3 segment is made longer than its
    /// records, ahead of them, and grown by again when less than half of that
    /// is left: an append into blocks that exist changes no metadata, so its
    /// `fdatasync` commits no file-system journal transaction (~75 µs instead
    /// of ~130 µs for a 4.5 KB record on this project's disk: docs/snapshots.md).
    /// 0: segments grow only by their records.
    public var preallocation: Int
    /// The format new segments are written in: ``JournalFormat/version``,
    /// or 1 for tests that need segments as the deckd before format 2 wrote them.
    var segmentVersion = JournalFormat.version

    /// Checkpoints every `recordsPerSegment` records or `bytesPerSegment` bytes, whichever comes first.
    public init(recordsPerSegment: Int = 1_000, bytesPerSegment: Int = 16 << 20, preallocation: Int = 1 << 20) {
        self.recordsPerSegment = max(1, recordsPerSegment)
        self.bytesPerSegment = max(JournalFormat.fileHeaderSize + 1, bytesPerSegment)
        self.preallocation = max(0, preallocation)
    }
}

/// Where one generation's record lies: its segment, and its payload's place in it.
struct JournalLocation: Sendable, Hashable {
    var segment: String
    var offset: Int
    var length: Int
}

/// The open segment a profile folder appends to.
struct JournalAppender: Sendable {
    var name: String
    var descriptor: Int32
    var header: JournalFormat.FileHeader
    /// Where the next record goes: the end of the last good one.
    var end: Int
    /// The file's length: from `end` to here it holds zeros (version 3).
    var zeroedTo: Int
    var records: Int
    /// The newest record in it, the one a checkpoint writes as a file.
    var newest: (generation: Int, location: JournalLocation)?
}

extension SnapshotStore {
    /// Reads every segment of `folder` in base order: records become
    /// generations; a damaged or torn tail is set aside and cut; a damaged
    /// header sets the whole segment aside. The last segment stays open for appends.
    ///
    /// - Throws: `newerJournal` for a segment of a newer format (nothing is
    ///   changed: a newer deckd's data is not ours to cut); `system` when one cannot be read.
    func loadJournal(_ folder: String, segments: [(base: Int, name: String)], into history: inout ProfileHistory,
                     state: inout StoreState) throws(SnapshotError) {
        if let open = state.journals.removeValue(forKey: folder) { _ = close(open.descriptor) }
        // This run's first record carries its edits whole.
        state.chains[folder] = nil
        var current: JournalAppender?
        for (index, segment) in segments.enumerated() {
            let path = filePath(folder, name: segment.name)
            guard let opened = try openSegment(path) else { continue }
            var bytes = opened.bytes
            defer { _ = close(bytes.descriptor) }
            let label = "journal \(folder)/\(segment.name)"
            guard opened.regular else {
                history.notices.append(setAsideSegment(folder, segment.name, label: label, reason: "it is not a regular file"))
                continue
            }
            let header: JournalFormat.FileHeader
            let start = try bytes.with(0, min(bytes.count, JournalFormat.fileHeaderSize)) { Array($0) }
            do throws(JournalFormat.HeaderProblem) {
                header = try JournalFormat.decodeHeader(start[...])
            } catch {
                switch error {
                case .newer(let version): throw .newerJournal(path: path, version: Int(version))
                case .damaged(let reason):
                    history.notices.append(setAsideSegment(folder, segment.name, label: label, reason: reason))
                    continue
                }
            }
            let scan = try JournalFormat.scan(&bytes, header: header, limit: Self.fileLimit)
            history.addRecords(scan.records, segment: segment.name)
            history.highest = max(history.highest, scan.records.last?.generation ?? 0, Int(clamping: header.base))
            if let problem = scan.problem {
                let tail = try Disk.readFile(path, limit: Self.documentLimit)?.bytes ?? []
                history.notices.append(cutTail(folder, segment.name, bytes: tail.count > scan.end ? tail[scan.end...] : [],
                                               at: scan.end, records: scan.records.count, reason: problem))
            }
            guard index == segments.count - 1, journal != nil else { continue }
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { throw .system(operation: "open", path: path, code: errno) }
            current = JournalAppender(name: segment.name, descriptor: descriptor, header: header, end: scan.end,
                                      zeroedTo: max(scan.end, bytes.count), records: scan.records.count,
                                      newest: scan.records.last.map { ($0.generation, JournalLocation(
                                          segment: segment.name, offset: $0.offset, length: $0.length)) })
        }
        if let current {
            state.journals[folder] = current
        } else if journal != nil, history.highest > 0 {
            // Only a folder with a generation gets a segment: one looked up and
            // never written (a profile resolved by name) has nothing to append
            // after, and may not even exist; its first write is a file, after
            // which the commit asks for a segment.
            state.needsSegment.insert(folder)
        }
    }

    /// A segment to scan through a window, and whether it is a regular file (a
    /// FIFO or folder is read as empty); nil when it is gone. A file larger
    /// than any segment can be is read as empty too, which its header check refuses.
    private func openSegment(_ path: String) throws(SnapshotError) -> (bytes: JournalFileBytes, regular: Bool)? {
        // O_NONBLOCK: a FIFO under a segment's name must not hang the start.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .system(operation: "open", path: path, code: errno)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            _ = close(descriptor)
            throw .system(operation: "inspect", path: path, code: code)
        }
        let regular = (info.st_mode & S_IFMT) == S_IFREG
        let size = !regular || Int(info.st_size) > Self.documentLimit ? 0 : Int(info.st_size)
        return (JournalFileBytes(descriptor: descriptor, path: path, count: size), regular)
    }

    /// The bytes of one record, checked again against its checksum (of its
    /// segment's format, read from the segment's header); `[]` when they do not match.
    func readRecord(_ folder: String, _ location: JournalLocation) throws(SnapshotError) -> [UInt8]? {
        let path = filePath(folder, name: location.segment)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .system(operation: "open", path: path, code: errno)
        }
        defer { _ = close(descriptor) }
        let start = location.offset - JournalFormat.recordHeaderSize
        guard let head = try Self.read(descriptor, count: JournalFormat.fileHeaderSize, at: 0, path: path),
              let header = try? JournalFormat.decodeHeader(head[...]),
              var bytes = try Self.read(descriptor, count: JournalFormat.recordHeaderSize + location.length, at: start, path: path)
        else { return [] }  // shorter than the scan saw, or its header changed: not what was checked
        let expected = JournalFormat.read32(bytes[...], 20)
        let actual = bytes.withUnsafeBytes { raw in
            JournalFormat.recordChecksum(UnsafeRawBufferPointer(rebasing: raw[24...]), seed: JournalFormat.recordChecksum(
                UnsafeRawBufferPointer(rebasing: raw[0..<20]), seed: 0, version: header.version), version: header.version)
        }
        guard actual == expected else { return [] }
        bytes.removeFirst(JournalFormat.recordHeaderSize)
        return bytes
    }

    /// `count` bytes from `offset`; nil when the file ends first.
    private static func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws(SnapshotError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw .system(operation: "read", path: path, code: errno) }
            if got == 0 { return nil }
            done += got
        }
        return bytes
    }

    /// A record whose checksum no longer matches when read again (it changed
    /// on disk after the scan): it and everything after it in its segment are
    /// set aside, as the next start's scan would.
    func cutRecord(_ folder: String, _ location: JournalLocation, reason: String, state: inout StoreState) -> SnapshotNotice {
        let path = filePath(folder, name: location.segment)
        let at = location.offset - JournalFormat.recordHeaderSize
        let tail = (try? Disk.readFile(path, limit: Self.documentLimit))??.bytes ?? []
        let notice = cutTail(folder, location.segment, bytes: tail.count > at ? tail[at...] : [], at: at,
                             records: nil, reason: reason)
        state.histories[folder]?.removeRecords(of: location.segment, from: location.offset)
        // The chain's last record may be among those cut: the next record starts anew.
        state.chains[folder] = nil
        if var appender = state.journals[folder], appender.name == location.segment {
            appender.end = min(appender.end, at)
            appender.zeroedTo = appender.end  // the cut truncated the file there
            if let newest = appender.newest, newest.location.offset >= location.offset { appender.newest = nil }
            state.journals[folder] = appender
        }
        return notice
    }

    /// A record whose checksum matches but whose document is refused (or
    /// whose edits go through such a record, or through no earlier record of
    /// its segment): its bytes are what was written, so cutting the segment
    /// there would only take the intact records after it along — including,
    /// when an old generation is read, the one the host resumed, so that the
    /// next start would resume an older one. Only `generations` leave the
    /// history (for this store's life: a restart refuses them again when it
    /// reads them), and the record's bytes are copied once to
    /// `SEGMENT-OFFSET.corrupt`, the segment left as it is.
    ///
    /// `payload`: the record's, when the caller has read it already.
    /// `generations`: the asked generation, then each whose edits the walk
    /// went through down to the refused record's own, last.
    func refuseRecord(_ folder: String, _ location: JournalLocation, _ payload: [UInt8]?, generations: [Int],
                      reason: String, state: inout StoreState) -> SnapshotNotice {
        for generation in generations { state.histories[folder]?.remove(generation) }
        // The next record starts whole, so no chain of this store's goes through a refused record.
        state.chains[folder] = nil
        let at = location.offset - JournalFormat.recordHeaderSize
        let label = "journal \(folder)/\(location.segment)"
        let own = generations.last ?? 0
        let refused = generations.count == 1 ? "generation \(own) is refused"
            : "generation \(own) and the \(generations.count - 1) whose edits go through it (up to generation "
                + "\(generations.max() ?? own)) are refused"
        var message = "\(label) has a record whose document is refused (\(reason)) at byte offset \(at); "
            + refused + "; the other records of the segment stay"
        let kept = "\(location.segment)-\(at).corrupt"
        if Disk.exists(filePath(folder, name: kept)) {
            message += "; kept as \(kept)"
        } else {
            do throws(SnapshotError) {
                let read = if let payload { payload } else { try readRecord(folder, location) }
                guard let bytes = read, !bytes.isEmpty else { throw .invalidEntry("the record is gone") }
                try Disk.replaceDurably(folder: folderPath(folder), name: kept, bytes: bytes)
                message += "; kept as \(kept)"
            } catch {
                message += " (not kept: \(error))"
            }
        }
        let notice = SnapshotNotice(kind: .corrupt, profile: ProfileFolderName.decode(folder), generation: generations.first,
                                    message: message)
        for generation in generations { state.refusals[folder, default: [:]][generation] = notice }
        return notice
    }

    /// Keeps the refused bytes as `SEGMENT-OFFSET.corrupt`, then truncates the segment to its good records.
    private func cutTail(_ folder: String, _ name: String, bytes: ArraySlice<UInt8>, at offset: Int, records: Int?,
                         reason: String) -> SnapshotNotice {
        let label = "journal \(folder)/\(name)"
        var kept = "\(name)-\(offset).corrupt"
        var attempt = 1
        while Disk.exists(filePath(folder, name: kept)) {
            attempt += 1
            kept = "\(name)-\(offset)-\(attempt).corrupt"
        }
        let after = records.map { " after its \($0) good record\($0 == 1 ? "" : "s")" } ?? ""
        var message = "\(label) has \(reason) at byte offset \(offset)\(after); it and everything after it "
            + "(\(bytes.count) bytes) were refused"
        do throws(SnapshotError) {
            // Zeros at its end are not kept: in version 3 they are the space ahead of the records.
            let end = bytes.lastIndex { $0 != 0 }.map { $0 + 1 } ?? bytes.startIndex
            try Disk.replaceDurably(folder: folderPath(folder), name: kept, bytes: Array(bytes[..<end]))
            message += " and kept as \(kept)"
            let path = filePath(folder, name: name)
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .system(operation: "open", path: path, code: errno) }
            defer { _ = close(descriptor) }
            guard ftruncate(descriptor, off_t(offset)) == 0 else { throw .system(operation: "truncate", path: path, code: errno) }
            try Disk.flushData(descriptor, path: path)
        } catch {
            message += " (\(error))"
        }
        return SnapshotNotice(kind: .corrupt, profile: ProfileFolderName.decode(folder), generation: nil, message: message)
    }

    /// Renames a whole segment `NAME.corrupt` (its header cannot be trusted).
    private func setAsideSegment(_ folder: String, _ name: String, label: String, reason: String) -> SnapshotNotice {
        var target = name + ".corrupt"
        var attempt = 1
        while Disk.exists(filePath(folder, name: target)) {
            attempt += 1
            target = name + "-\(attempt).corrupt"
        }
        do throws(SnapshotError) {
            try Disk.rename(filePath(folder, name: name), to: filePath(folder, name: target))
            return SnapshotNotice(kind: .corrupt, profile: ProfileFolderName.decode(folder), generation: nil,
                                  message: "\(label) was corrupt (\(reason)); kept as \(target)")
        } catch {
            return SnapshotNotice(kind: .corruptNotRenamed, profile: ProfileFolderName.decode(folder), generation: nil,
                                  message: "\(label) is corrupt (\(reason)) and could not be renamed (\(error)); skipped")
        }
    }
}
