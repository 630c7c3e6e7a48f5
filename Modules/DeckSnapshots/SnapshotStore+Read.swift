import DeckModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The newest intact generation of a profile and what was found on the way to it.
public struct SnapshotReading: Sendable {
    /// The newest generation that read back intact; nil when the profile has none.
    public var snapshot: Snapshot?
    /// One line per damaged file that was set aside (newest first).
    public var notices: [SnapshotNotice]
}

/// A profile's generations, newest first, and what was found while listing them.
public struct SnapshotListing: Sendable {
    /// Newest first.
    public var snapshots: [SnapshotInfo]
    /// One line per damaged file that was set aside.
    public var notices: [SnapshotNotice]
}

/// A snapshot file's verdict: intact, or damaged and why.
private enum Verdict<Value> {
    case intact(Value)
    case damaged(String)
}

extension SnapshotStore {
    /// Ends a damaged file's notice when its journal record read back whole in its place.
    static let recordStandsIn = "; its journal record stands for it"

    /// Why a record read again is cut with the rest of its segment.
    static let changedOnDisk = "a record whose checksum no longer matches (it changed on disk after the segment was read)"
}

/// A generation loaded from its file or record: intact, or set aside with this notice.
enum Loaded {
    case intact(Snapshot)
    case damaged(SnapshotNotice)
}

extension SnapshotStore {
    /// The newest generation of `profile` that reads back intact — the one the
    /// host resumes. Newer files that are damaged are renamed `.corrupt` and
    /// reported in `notices` ("…; resumed generation 41"). Generations beyond
    /// `keep` that a crash left (their deletion had not run) are forgotten and
    /// deleted then, as after a write.
    ///
    /// - Throws: for a name that cannot be a folder, or when a file cannot be
    ///   read at all (permissions, I/O error): that is not corruption, and
    ///   falling back to an older generation would quietly lose edits.
    public func newest(profile: String) throws(SnapshotError) -> SnapshotReading {
        try state.withLock { state throws(SnapshotError) in
            let folder = try ProfileFolderName.encode(profile)
            var notices: [SnapshotNotice] = []
            var found: Snapshot?
            for generation in try history(folder, in: &state).generations.reversed() {
                switch try loadAny(folder: folder, profile: profile, generation: generation, state: &state) {
                case .intact(let snapshot):
                    found = snapshot
                case .damaged(let notice):
                    notices.append(notice)
                case nil:
                    state.histories[folder]?.remove(generation)
                }
                if found != nil { break }
            }
            // Generations a crash kept from retention's deletion (PROFILE.md §6:
            // only the newest `keep` stay) go now, not at the next write: they
            // would be listed and restorable meanwhile. Only once one reads
            // back whole, so that a damaged newest still falls back to them.
            if found != nil { applyRetention(folder, state: &state) }
            notices = takeLoadNotices(folder, state: &state) + notices
            let outcome = found.map { "resumed generation \($0.info.generation)" } ?? "no intact snapshot is left"
            for index in notices.indices { notices[index].message += "; " + outcome }
            return SnapshotReading(snapshot: found, notices: notices)
        }
    }

    /// One generation in full, for `restore`.
    ///
    /// - Throws: `notFound` when there is no such file; `corrupt` (with the
    ///   notice) when it is damaged — it has then been renamed `.corrupt`.
    public func read(profile: String, generation: Int) throws(SnapshotError) -> Snapshot {
        try state.withLock { state throws(SnapshotError) in
            let folder = try ProfileFolderName.encode(profile)
            let known = try history(folder, in: &state)
            guard known.names[generation] != nil || known.records[generation] != nil else {
                if let refused = state.refusals[folder]?[generation] { throw .corrupt(refused) }
                throw .notFound(profile: profile, generation: generation)
            }
            switch try loadAny(folder: folder, profile: profile, generation: generation, state: &state) {
            case .intact(let snapshot):
                return snapshot
            case .damaged(let notice):
                throw .corrupt(notice)
            case nil:
                state.histories[folder]?.remove(generation)
                throw .notFound(profile: profile, generation: generation)
            }
        }
    }

    /// Every generation of `profile`, newest first, without inflating whole
    /// files: the header fields come first in each document, so inflating the
    /// first few hundred bytes is enough. A file whose start is damaged is set aside.
    public func list(profile: String) throws(SnapshotError) -> SnapshotListing {
        try state.withLock { state throws(SnapshotError) in
            let folder = try ProfileFolderName.encode(profile)
            var listing = SnapshotListing(snapshots: [], notices: [])
            for generation in try history(folder, in: &state).generations.reversed() {
                if let name = state.histories[folder]?.names[generation] {
                    switch try header(folder: folder, name: name, profile: profile, generation: generation) {
                    case .intact(let info):
                        listing.snapshots.append(info)
                    case .damaged(let reason):
                        let (notice, record) = setAsideKeepingRecord(profile: profile, folder: folder, name: name,
                                                                     generation: generation, reason: reason, state: &state)
                        let at = listing.notices.count
                        listing.notices.append(notice)
                        guard record != nil else { continue }
                        try listRecord(folder: folder, profile: profile, generation: generation, into: &listing, state: &state)
                        if listing.snapshots.last?.generation == generation { listing.notices[at].message += Self.recordStandsIn }
                    case nil:
                        state.histories[folder]?.remove(generation)
                    }
                } else {
                    try listRecord(folder: folder, profile: profile, generation: generation, into: &listing, state: &state)
                }
            }
            // A cut record takes the ones after it in its segment along.
            let kept = Set(state.histories[folder]?.generations ?? [])
            listing.snapshots.removeAll { !kept.contains($0.generation) }
            listing.notices = takeLoadNotices(folder, state: &state) + listing.notices
            return listing
        }
    }

    /// `generation`'s record header into `listing` (a damaged one is cut or refused, and said).
    private func listRecord(folder: String, profile: String, generation: Int, into listing: inout SnapshotListing,
                            state: inout StoreState) throws(SnapshotError) {
        guard let record = state.histories[folder]?.records[generation] else { return }
        guard let bytes = try readRecord(folder, record) else {
            state.histories[folder]?.remove(generation)
            return
        }
        guard !bytes.isEmpty else {
            listing.notices.append(cutRecord(folder, record, reason: Self.changedOnDisk, state: &state))
            return
        }
        switch try recordHeader(bytes, profile: profile, generation: generation) {
        case .intact(let info):
            listing.snapshots.append(info)
        case .damaged(let reason):
            listing.notices.append(refuseRecord(folder, record, bytes, generations: [generation], reason: reason, state: &state))
        }
    }

    /// The profiles that have a snapshot folder, by name, sorted.
    public func profiles() throws(SnapshotError) -> [String] {
        try Disk.entries(of: snapshotsDirectory).filter { !$0.hasPrefix(".") }
            .compactMap(ProfileFolderName.decode).sorted()
    }

    /// One generation from its file, else its journal record; a damaged one
    /// is set aside (a file renamed, a record cut with the rest of its segment).
    private func loadAny(folder: String, profile: String, generation: Int,
                         state: inout StoreState) throws(SnapshotError) -> Loaded? {
        if let name = state.histories[folder]?.names[generation] {
            switch try load(folder: folder, name: name, profile: profile, generation: generation) {
            case .intact(let snapshot): return .intact(snapshot)
            case .damaged(let reason):
                let (notice, record) = setAsideKeepingRecord(profile: profile, folder: folder, name: name,
                                                             generation: generation, reason: reason, state: &state)
                guard let record else { return .damaged(notice) }
                switch try loadRecord(folder: folder, profile: profile, generation: generation, at: record, state: &state) {
                case .intact(let snapshot)?:
                    var standsIn = notice
                    standsIn.message += Self.recordStandsIn
                    state.histories[folder]?.notices.append(standsIn)
                    return .intact(snapshot)
                case .damaged(let recordNotice)?:
                    state.histories[folder]?.notices.append(recordNotice)
                    return .damaged(notice)
                case nil:
                    return .damaged(notice)
                }
            case nil: return nil
            }
        }
        guard let record = state.histories[folder]?.records[generation] else { return nil }
        return try loadRecord(folder: folder, profile: profile, generation: generation, at: record, state: &state)
    }

    /// `generation`'s record as a whole snapshot (its edits gathered from
    /// the records they continue), for a checkpoint. A damaged record is cut
    /// as on any read (its notice returned); nil when it is gone.
    func wholeRecord(folder: String, generation: Int, at record: JournalLocation,
                     state: inout StoreState) throws(SnapshotError) -> Loaded? {
        guard let profile = ProfileFolderName.decode(folder) else { return nil }
        return try loadRecord(folder: folder, profile: profile, generation: generation, at: record, state: &state)
    }

    /// One generation from its journal record. When its edits continue an
    /// earlier record's (version 3), those records are read back too, each
    /// checked again, down to the one that carries its edits whole. One whose
    /// checksum no longer matches is cut with everything after it (as the next
    /// scan would); one whose document is refused is refused with the asked
    /// generation, the segment left as it is (``refuseRecord``).
    private func loadRecord(folder: String, profile: String, generation: Int, at record: JournalLocation,
                            state: inout StoreState) throws(SnapshotError) -> Loaded? {
        var snapshot: Snapshot?
        var added: [[DeckEdit]] = []
        var current = (generation: generation, location: record)
        // Each step goes to a lower generation of the same segment, so the
        // walk ends; no writer makes a chain longer than EditChain.maximumLength,
        // and a longer one (a hostile segment) is damage, not minutes of reading.
        // Every generation the walk passed, the asked one first: each one's edits go through the record it is at.
        var walked = [generation]
        while true {
            if walked.count > EditChain.maximumLength + 1 {
                return .damaged(refuseRecord(folder, current.location, nil, generations: walked, reason: "its edits "
                    + "continue a chain of more than \(EditChain.maximumLength) records", state: &state))
            }
            guard let bytes = try readRecord(folder, current.location) else { return nil }
            guard !bytes.isEmpty else { return .damaged(cutRecord(folder, current.location, reason: Self.changedOnDisk, state: &state)) }
            let earlier: Int
            switch try Self.verdict(onRecord: bytes, profile: profile, generation: current.generation) {
            case .damaged(let reason):
                return .damaged(refuseRecord(folder, current.location, bytes, generations: walked, reason: reason, state: &state))
            case .intact(let found):
                guard var asked = snapshot else { return .intact(found) }
                asked.edits = (found.edits ?? []) + added.reversed().joined()
                return .intact(asked)
            case let .editsAfter(found, generation: next):
                if snapshot == nil { snapshot = found }
                added.append(found.edits ?? [])
                earlier = next
            }
            guard let location = state.histories[folder]?.segmentRecords[earlier],
                  location.segment == current.location.segment, location.offset < current.location.offset else {
                return .damaged(refuseRecord(folder, current.location, bytes, generations: walked, reason: "its edits continue "
                    + "generation \(earlier), which is not an earlier record of its segment", state: &state))
            }
            current = (earlier, location)
            walked.append(earlier)
        }
    }

    /// A record's header fields, from the start of its document (inflating only that far when it is gzip).
    private func recordHeader(_ bytes: [UInt8], profile: String,
                              generation: Int) throws(SnapshotError) -> Verdict<SnapshotInfo> {
        let prefix: [UInt8]?
        do throws(GunzipProblem) {
            prefix = try JournalPayload.prefix(of: bytes, before: SnapshotDocument.layoutMarker, limit: 64 * 1024)
        } catch {
            switch error {
            case .damaged(let reason): return .damaged(reason)
            case .resource(let reason): throw .compression(reason)
            }
        }
        guard let prefix else {
            // Not in the store's key order (written by hand?): read it whole.
            return switch try Self.verdict(onRecord: bytes, profile: profile, generation: generation) {
            case .intact(let snapshot), .editsAfter(let snapshot, _): .intact(snapshot.info)
            case .damaged(let reason): .damaged(reason)
            }
        }
        do throws(DocumentProblem) {
            return .intact(try SnapshotDocument.decodeHeader(prefix: prefix, profile: profile, generation: generation)
                .info(bytes: bytes.count))
        } catch {
            return .damaged(error.reason)
        }
    }

    /// What loading the folder's journal found, reported once.
    private func takeLoadNotices(_ folder: String, state: inout StoreState) -> [SnapshotNotice] {
        defer { state.histories[folder]?.notices.removeAll() }
        return state.histories[folder]?.notices ?? []
    }

    /// Reads, inflates and decodes one file; nil when it vanished.
    private func load(folder: String, name: String, profile: String,
                      generation: Int) throws(SnapshotError) -> Verdict<Snapshot>? {
        let path = filePath(folder, name: name)
        guard let (bytes, size, regular) = try Disk.readFile(path, limit: Self.fileLimit) else { return nil }
        guard regular else { return .damaged("it is not a regular file") }
        guard size <= Self.fileLimit else { return .damaged("it is larger than \(Self.fileLimit >> 20) MiB") }
        switch try Self.verdict(onFile: bytes, profile: profile, generation: generation) {
        case .intact(let snapshot): return .intact(snapshot)
        case .damaged(let reason): return .damaged(reason)
        }
    }

    /// The header of one file from its first 4 KiB; falls back to reading the
    /// whole file when the header is not there (a file some other tool wrote).
    private func header(folder: String, name: String, profile: String,
                        generation: Int) throws(SnapshotError) -> Verdict<SnapshotInfo>? {
        let path = filePath(folder, name: name)
        guard let (start, size, regular) = try Disk.readFile(path, prefix: 4096, limit: Self.fileLimit) else { return nil }
        guard regular else { return .damaged("it is not a regular file") }
        guard size <= Self.fileLimit else { return .damaged("it is larger than \(Self.fileLimit >> 20) MiB") }
        let prefix: [UInt8]?
        do throws(GunzipProblem) {
            prefix = try ZlibCodec.gunzipPrefix(start, before: SnapshotDocument.layoutMarker, limit: 64 * 1024)
        } catch {
            switch error {
            case .damaged(let reason): return .damaged(reason)
            case .resource(let reason): throw .compression(reason)
            }
        }
        guard let prefix else {
            return try load(folder: folder, name: name, profile: profile, generation: generation).map { verdict in
                switch verdict {
                case .intact(let snapshot): .intact(snapshot.info)
                case .damaged(let reason): .damaged(reason)
                }
            }
        }
        do throws(DocumentProblem) {
            return .intact(try SnapshotDocument.decodeHeader(prefix: prefix, profile: profile, generation: generation).info(bytes: size))
        } catch {
            return .damaged(error.reason)
        }
    }

    /// Sets a damaged file aside; when its generation also has a journal
    /// record (a checkpoint's file), the record stands for it again: PROFILE.md
    /// §6 resumes "the newest good one", and the file's rot does not make the
    /// record bad. Setting the generation aside alone lost an acknowledged
    /// edit at that start, and the next start found it again in the journal
    /// (an audit's finding). The record is read, and checked, by the caller,
    /// which says so in the notice (``recordStandsIn``) when it is whole.
    private func setAsideKeepingRecord(profile: String, folder: String, name: String, generation: Int, reason: String,
                                       state: inout StoreState) -> (SnapshotNotice, JournalLocation?) {
        let record = state.histories[folder]?.segmentRecords[generation]
        let notice = setAside(profile: profile, folder: folder, name: name, generation: generation, reason: reason, state: &state)
        if let record { state.histories[folder]?.add(generation, record: record) }
        return (notice, record)
    }

    /// Renames a damaged file `NAME.corrupt` (never deletes it) and says so.
    private func setAside(profile: String, folder: String, name: String, generation: Int, reason: String,
                          state: inout StoreState) -> SnapshotNotice {
        state.histories[folder]?.remove(generation)
        let path = filePath(folder, name: name)
        var target = name + ".corrupt"
        var attempt = 1
        while Disk.exists(filePath(folder, name: target)) {
            attempt += 1
            target = name + "-\(attempt).corrupt"
        }
        let label = "snapshot \(folder)/\(name.prefix { $0 != "." })"
        do throws(SnapshotError) {
            try Disk.rename(path, to: filePath(folder, name: target))
            return SnapshotNotice(kind: .corrupt, profile: profile, generation: generation,
                                  message: "\(label) was corrupt (\(reason)); kept as \(target)")
        } catch {
            return SnapshotNotice(kind: .corruptNotRenamed, profile: profile, generation: generation,
                                  message: "\(label) is corrupt (\(reason)) and could not be renamed (\(error)); skipped")
        }
    }
}
