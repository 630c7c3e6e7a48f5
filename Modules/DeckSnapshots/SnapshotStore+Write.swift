import DeckModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The outcome of writing one or several generations.
public struct SnapshotCommit: Sendable {
    /// The generations now durable on disk, in the order of the entries given:
    /// always a prefix of them. Acknowledge exactly these.
    public var written: [SnapshotInfo]
    /// Why the entries after `written` were not written; nil when all were.
    /// None of them is on disk under its final name.
    public var failure: SnapshotError?
    /// Things worth a log line that did not stop the write: old generations
    /// that the background retention could not delete since the last commit.
    public var notices: [SnapshotNotice]
}

/// One generation on its way to disk.
struct PendingFile {
    var folder: String
    var header: SnapshotHeader
    /// Where a file batch puts it (`0000000042.json.gz` in its folder).
    /// Made only when asked: a journal record never needs it.
    var finalName: String { SnapshotStore.fileName(generation: header.generation) }
    var temporaryPath = ""
    var descriptor: Int32 = -1
    /// What goes to disk: the gzip file, or a journal record's payload
    /// (``JournalPayload``: in a version-2 segment usually the JSON as it is).
    var payload: [UInt8]
    /// Whether `payload` is the JSON as it is, which only a record may hold.
    var raw = false
    /// The segment's chain once this record is appended (a version-3 segment only).
    var chain: EditChain?
}

extension SnapshotStore {
    /// Writes one generation and returns it once it is durable.
    ///
    /// - Throws: the reason it was not written; then nothing was renamed into
    ///   place and the previous generation is still the newest.
    @discardableResult
    public func write(_ entry: SnapshotEntry) throws(SnapshotError) -> SnapshotCommit {
        let commit = write([entry])
        if let failure = commit.failure { throw failure }
        return commit
    }

    /// Writes several generations as one group commit: every file is atomic on
    /// its own, and the whole group costs two flushes instead of two per file
    /// (all temporary files flushed, all renamed, each folder flushed once).
    ///
    /// Generations are numbered in entry order, per profile. When something
    /// fails, the entries before the failing one are still committed (each
    /// edit builds on the previous one, so a prefix is what can be
    /// acknowledged) and the rest are not on disk.
    public func write(_ entries: [SnapshotEntry]) -> SnapshotCommit {
        state.withLock { state in commit(entries, state: &state) }
    }

    private func commit(_ entries: [SnapshotEntry], state: inout StoreState) -> SnapshotCommit {
        var failure: SnapshotError?
        var files: [PendingFile] = []
        // Each step keeps a prefix of `files`; a failure cuts the rest off.
        func cut(at index: Int, _ error: SnapshotError) {
            for file in files[index...] {
                if file.descriptor >= 0 { _ = close(file.descriptor) }
                if !file.temporaryPath.isEmpty { Disk.remove(file.temporaryPath) }
            }
            files.removeSubrange(index...)
            failure = error
        }

        do throws(SnapshotError) {
            try prepare(entries, into: &files, state: &state)
        } catch {
            failure = error
        }
        if journal != nil, !files.isEmpty, files.allSatisfy({ state.journals[$0.folder] != nil }) {
            return commitToJournal(files, failure: failure, state: &state)
        }
        // Files after all (a folder of the batch has no open segment): a file
        // is always gzip, and its documents were written whole. A segment's
        // next record starts its edits anew: its predecessor is a file.
        for file in files { state.chains[file.folder] = nil }
        for index in files.indices where files[index].raw {
            do throws(SnapshotError) {
                files[index].payload = try state.recordDeflater.gzip(files[index].payload)
                files[index].raw = false
            } catch {
                cut(at: index, error)
                break
            }
        }
        for (index, folder) in firstIndexOfEachFolder(files).reversed() where !state.existingFolders.contains(folder) {
            do throws(SnapshotError) {
                try Disk.makeDirectories(folderPath(folder))
                state.existingFolders.insert(folder)
            } catch {
                cut(at: index, error)
            }
        }
        for index in files.indices {
            do throws(SnapshotError) {
                try createTemporary(&files[index])
            } catch {
                cut(at: index, error)
                break
            }
        }
        if let (index, error) = flush(files) { cut(at: index, error) }
        for index in files.indices {
            do throws(SnapshotError) {
                let descriptor = files[index].descriptor
                files[index].descriptor = -1
                try Disk.close(descriptor, path: files[index].temporaryPath)
            } catch {
                cut(at: index, error)
                break
            }
        }
        var renamed = 0
        for index in files.indices {
            do throws(SnapshotError) {
                try Disk.rename(files[index].temporaryPath, to: filePath(files[index].folder, name: files[index].finalName))
                renamed += 1
            } catch {
                cut(at: index, error)
                break
            }
        }
        var flushedFolders = renamed
        for (index, folder) in firstIndexOfEachFolder(files) where index < flushedFolders {
            do throws(SnapshotError) { try Disk.flushDirectory(folderPath(folder)) } catch {
                flushedFolders = index
                failure = error
            }
        }
        for (index, file) in files.enumerated() {
            // In place, as for records: a copy changed and stored back copies the history's tables.
            state.histories[file.folder, default: ProfileHistory()].add(file.header.generation, name: file.finalName)
            // Renamed but its folder flush failed: not acknowledged, so take it
            // back (the number stays used: a crash could still bring the file back).
            if index >= flushedFolders && Disk.remove(filePath(file.folder, name: file.finalName)) == 0 {
                state.histories[file.folder]?.remove(file.header.generation)
            }
        }
        let written = files.prefix(flushedFolders).map { file in
            file.header.info(bytes: file.payload.count)
        }
        for (_, folder) in firstIndexOfEachFolder(Array(files.prefix(flushedFolders))) {
            applyRetention(folder, state: &state)
        }
        // After any failure, check the folders again next time (one may have been removed).
        if failure != nil { state.existingFolders.removeAll() }
        var notices = retention.takeNotices() + state.maintenanceNotices
        state.maintenanceNotices.removeAll()
        for folder in Set(files.map(\.folder)) {
            // A journaled folder's newest generation is a file now: maintain() starts a segment after it.
            if journal != nil, state.journals[folder] == nil { state.needsSegment.insert(folder) }
            notices += state.histories[folder]?.notices ?? []
            state.histories[folder]?.notices.removeAll()
        }
        return SnapshotCommit(written: written, failure: failure, notices: notices)
    }

    /// Checks, numbers and compresses every entry; stops at the first bad one.
    private func prepare(_ entries: [SnapshotEntry], into files: inout [PendingFile],
                         state: inout StoreState) throws(SnapshotError) {
        var next: [String: Int] = [:]
        // A record may carry only the edits it adds when every entry goes to
        // an open version-3 segment: a batch that falls back to files writes
        // each document whole.
        let chainable = journal != nil && entries.allSatisfy { entry in
            (try? ProfileFolderName.encode(entry.profile)).flatMap { state.journals[$0] }.map { $0.header.version >= 3 } ?? false
        }
        var chains = state.chains
        for entry in entries {
            guard entry.revision >= 0 else { throw .invalidEntry("revision \(entry.revision) is negative") }
            guard entry.revision <= SnapshotDocument.maximumRevision else {
                throw .invalidEntry("revision \(entry.revision) is larger than \(SnapshotDocument.maximumRevision)")
            }
            guard !entry.reason.isEmpty else { throw .invalidEntry("the reason is empty") }
            let folder = try ProfileFolderName.encode(entry.profile)
            var generation = next[folder] ?? 0
            if generation == 0 { generation = try history(folder, in: &state).highest + 1 }
            next[folder] = generation + 1
            let header = SnapshotHeader(
                profile: entry.profile, generation: generation, revision: entry.revision,
                time: SnapshotTime.truncated(entry.time), reason: entry.reason, source: entry.source)
            var form = SnapshotDocument.EditsForm.whole
            var chain: EditChain?
            if chainable {
                // Only a record that adds edits continues: `"edits":[]` is shorter than any continuation.
                if let last = chains[folder], last.generation == generation - 1, last.length < EditChain.maximumLength,
                   entry.edits.count > last.edits.count, entry.edits.starts(with: last.edits) {
                    form = .after(generation: last.generation, count: last.edits.count)
                    chain = EditChain(generation: generation, edits: entry.edits, length: last.length + 1)
                } else {
                    chain = EditChain(generation: generation, edits: entry.edits, length: 0)
                }
                chains[folder] = chain
            }
            let document = try SnapshotDocument.encode(header, layout: entry.layout, edits: entry.edits,
                                                       reusing: entry.encodedLayout, cache: &state.editJSON[folder, default: EditJSONCache()],
                                                       form: form)
            // A folder with an open segment gets it as a record in that
            // segment's format (should the batch fall back to files, commit
            // gzips a raw one at the faster level); else a file at level 6.
            let payload: (bytes: [UInt8], raw: Bool)
            if journal != nil, let appender = state.journals[folder] {
                payload = try JournalPayload.encode(document, version: appender.header.version, deflater: state.recordDeflater)
            } else {
                payload = (try state.deflater.gzip(document), false)
            }
            files.append(PendingFile(folder: folder, header: header, payload: payload.bytes, raw: payload.raw, chain: chain))
        }
    }

    /// Creates a uniquely named temporary file beside the final one and writes it whole.
    private func createTemporary(_ file: inout PendingFile) throws(SnapshotError) {
        let (descriptor, path) = try Disk.createTemporary(in: folderPath(file.folder), for: file.finalName)
        file.descriptor = descriptor
        file.temporaryPath = path
        try Disk.writeAll(descriptor, file.payload, path: path)
    }

    /// Makes every temporary file's bytes durable: `fdatasync` for one file,
    /// one `syncfs` for several (each fdatasync of a new file is a journal
    /// commit). Returns where it failed: that file and those after it are not durable.
    private func flush(_ files: [PendingFile]) -> (index: Int, error: SnapshotError)? {
        if files.count > 1, Disk.trustworthySyncfs != nil {
            // Once per folder: all sit under STATE/snapshots, but one could be a mount point.
            for (index, folder) in firstIndexOfEachFolder(files) {
                do throws(SnapshotError) {
                    try Disk.flushFileSystem(files[index].descriptor, path: folderPath(folder))
                } catch {
                    return (0, error)
                }
            }
            return nil
        }
        for (index, file) in files.enumerated() {
            do throws(SnapshotError) { try Disk.flushData(file.descriptor, path: file.temporaryPath) } catch {
                return (index, error)
            }
        }
        return nil
    }

    /// Forgets the oldest generations of `folder` beyond `keep` and has the
    /// retention worker delete their files.
    func applyRetention(_ folder: String, state: inout StoreState) {
        guard let excess = state.histories[folder].map({ $0.count - keep }), excess > 0 else { return }
        var doomed: [(path: String, label: String, generation: Int)] = []
        var touched: Set<String> = []
        // Read, then changed in place once this copy is gone: a copy changed
        // and stored back copied its tables on every commit (~5 K instructions).
        if let history = state.histories[folder] {
            for generation in history.generations.prefix(excess) {
                if let name = history.names[generation] {
                    doomed.append((filePath(folder, name: name), "\(folder)/\(name)", generation))
                }
                if let record = history.records[generation] { touched.insert(record.segment) }
            }
        }
        _ = state.histories[folder]?.removeOldest(excess)
        for segment in retiredSegments(folder, touched: touched, state: state) {
            doomed.append((filePath(folder, name: segment), "\(folder)/\(segment)", 0))
            state.histories[folder]?.forgetSegment(segment)
        }
        retention.delete(doomed)
    }

    /// Each folder with the index of its first file, in order.
    private func firstIndexOfEachFolder(_ files: [PendingFile]) -> [(Int, String)] {
        var seen: Set<String> = []
        return files.enumerated().compactMap { index, file in seen.insert(file.folder).inserted ? (index, file.folder) : nil }
    }
}
