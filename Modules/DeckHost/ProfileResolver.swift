import DeckModel
import DeckProfiles
import DeckSnapshots

/// The layout a profile is served with (PROFILE.md §5): its newest intact
/// snapshot if that was made from the file as it is now, else the file; a
/// broken or missing file falls back to the newest snapshot.
struct ProfileResolution: Sendable {
    var layout: DeckLayout
    var source: SnapshotSource?
    /// The client edits on top of the file (PROFILE.md §5), for the next rebase.
    var edits: [DeckEdit] = []
    /// The file changed since the snapshot, whose edits were rebased onto it.
    var rebase: RebaseReport?
    /// The snapshot resumed, when the layout came from one.
    var resumed: DeckSnapshots.SnapshotInfo?
    /// Sentences for the log and `status` (a corrupt snapshot set aside, the file winning over edits).
    var notices: [String]
    /// Newer snapshots were damaged and set aside, so an older one was resumed.
    var fellBack = false
}

enum ProfileResolver {
    /// Resolves `name` against a scan of the layouts folder and the snapshot
    /// store; nil when the profile has neither a valid file nor a snapshot.
    /// Runs on the disk thread.
    static func resolve(_ name: String, catalog: ProfileCatalog, store: SnapshotStore,
                        prefetched: SnapshotPrefetch? = nil) throws(HostError) -> ProfileResolution? {
        let reading: SnapshotReading
        do {
            if let prefetched, prefetched.profile == name {
                reading = try prefetched.wait().get()
            } else {
                reading = try store.newest(profile: name)
            }
        } catch {
            throw .runtime("could not read the snapshots of '\(name)': \(error)")
        }
        var notices = reading.notices.map(\.message)
        if let file = catalog.profile(named: name) {
            let source = snapshotSource(of: file.fingerprint)
            if let snapshot = reading.snapshot, snapshot.info.source == source {
                // A snapshot from before edits were recorded: its difference
                // from the file counts as the edits (as after a restore).
                let edits = snapshot.edits ?? EditRebase.changes(from: file.profile.layout, to: snapshot.layout)
                return ProfileResolution(layout: snapshot.layout, source: source, edits: edits, resumed: snapshot.info,
                                         notices: notices, fellBack: !reading.notices.isEmpty)
            }
            if let snapshot = reading.snapshot, let edits = snapshot.edits, !edits.isEmpty {
                // The file changed while the host was not watching: the edits
                // since its last load are rebased onto it, as a live reload does.
                let rebase = EditRebase(edits, onto: file.profile.layout)
                let report = RebaseReport(profile: name, file: file.fingerprint.file, rebase: rebase,
                                          generation: snapshot.info.generation)
                notices.append("\(file.fingerprint.file) changed since the live layout of '\(name)' was saved "
                    + "(generation \(snapshot.info.generation)); its device edits were rebased onto it: " + report.summary)
                notices += report.sentences
                return ProfileResolution(layout: rebase.layout, source: source, edits: rebase.kept, rebase: report,
                                         resumed: nil, notices: notices)
            }
            if let snapshot = reading.snapshot, snapshot.edits == nil, snapshot.layout != file.profile.layout {
                notices.append("\(file.fingerprint.file) changed since the live layout of '\(name)' was saved "
                    + "(generation \(snapshot.info.generation), which records no edits to replay); the file wins, "
                    + "and that live state stays restorable")
            }
            return ProfileResolution(layout: file.profile.layout, source: source, resumed: nil, notices: notices)
        }
        guard let snapshot = reading.snapshot else { return nil }
        if !brokenFiles(named: name, in: catalog).isEmpty {
            // Past tense: notices stay in `status` for the whole run, also once the file is fixed.
            notices.append("the file of profile '\(name)' had problems when the profile was chosen; "
                + "its newest snapshot (generation \(snapshot.info.generation)) was served instead")
        }
        return ProfileResolution(layout: snapshot.layout, source: snapshot.info.source, edits: snapshot.edits ?? [],
                                 resumed: snapshot.info, notices: notices, fellBack: !reading.notices.isEmpty)
    }

    /// What a snapshot records as its source for a file as scanned.
    static func snapshotSource(of fingerprint: FileFingerprint) -> SnapshotSource {
        SnapshotSource(file: fingerprint.file, crc32: fingerprint.crc32, bytes: fingerprint.bytes)
    }

    /// Files that would give profile `name` (by stem) but have problems.
    static func brokenFiles(named name: String, in catalog: ProfileCatalog) -> [ProfileCatalog.File] {
        catalog.files.filter { $0.profile == nil && DeckProfile.stem(of: $0.fingerprint.file) == name }
    }

    /// The highest revision any profile's newest snapshot holds: the host's
    /// revision survives restarts and only grows. Taken before any snapshot
    /// is read: reading sets a damaged newest file aside, and the revision
    /// it carried (clients may have seen it) must still count.
    ///
    /// Listing reads each file's start, and sets aside a file whose start is
    /// damaged (its revision cannot be read): those are in `setAside`, to be
    /// logged and shown in `status` like any other fallback.
    static func scanRevisions(in store: SnapshotStore) throws(HostError) -> RevisionScan {
        do {
            var scan = RevisionScan(highest: 0, setAside: [], aboveNewest: [])
            for profile in try store.profiles() {
                let listing = try store.list(profile: profile)
                scan.setAside += listing.notices
                let newest = listing.snapshots.first
                // A damaged generation older than the newest intact one of its
                // profile carried an older revision: nothing was lost above it.
                scan.aboveNewest += listing.notices.filter { notice in
                    guard notice.kind == .corrupt || notice.kind == .corruptNotRenamed else { return false }
                    guard let generation = notice.generation, let newest else { return true }
                    return generation > newest.generation
                }
                if let newest {
                    scan.highest = max(scan.highest, newest.revision)
                }
            }
            return scan
        } catch {
            throw .runtime("could not list the snapshots in \(store.snapshotsDirectory): \(error)")
        }
    }
}

/// What ``ProfileResolver/scanRevisions(in:)`` found before start-up read any snapshot in full.
struct RevisionScan: Sendable {
    /// The highest revision of any profile's newest readable snapshot.
    var highest: Int
    /// What the listing found and dealt with: damaged files it set aside
    /// (renamed `.corrupt`), damaged journal records, leftovers removed.
    var setAside: [SnapshotNotice]
    /// Those of ``setAside`` that may have held a profile's newest
    /// generation: damaged, and newer than the newest intact generation of
    /// their profile (or of no known generation). Only these hide a revision
    /// a client may have seen, or make the start a fall-back.
    var aboveNewest: [SnapshotNotice]

    /// The highest revision a client may have seen, as well as it can be
    /// told. A file set aside here had a revision that cannot be read. Every
    /// revision above `highest` still on disk is on such a file (an intact
    /// one would have counted) newer than its profile's newest intact one
    /// (``aboveNewest``), one revision per file, so counting one each
    /// covers them — unless retention deleted generations above `highest`,
    /// which takes every kept generation of a profile being damaged. A
    /// revision made at start goes above this, so a client does not see the
    /// same revision twice with different layouts.
    var seenAtMost: Int { highest + aboveNewest.count }

    /// The set-aside notices as sentences; those of `served` (the profile
    /// deckd starts with) also say what is served in their place, as the
    /// store's own reading does.
    func sentences(served: String?, resumed: DeckSnapshots.SnapshotInfo?) -> [String] {
        setAside.map { notice in
            guard notice.profile == served else { return notice.message }
            return notice.message + "; " + (resumed.map { "resumed generation \($0.generation)" } ?? "its file is served")
        }
    }
}

/// How deckd starts (PROFILE.md §5 and CLI.md `--profile`).
struct StartupPlan: Sendable {
    var state: LiveState
    /// The generation to write before serving (a new live change), or nil
    /// when the newest snapshot is resumed as it is.
    var generation: SnapshotEntry?
    var notices: [String]

    /// Chooses the profile and its layout. The active profile is `explicit`
    /// (`--profile`), else the last live one, else `default`, else the first
    /// valid one by name; one that cannot be served is skipped unless it was
    /// named explicitly. A folder with no profile files at all serves an
    /// empty `default` layout. `scan` is
    /// ``ProfileResolver/scanRevisions(in:)``, taken before any snapshot was
    /// read; `prefetched` is the first candidate's snapshot reading, started
    /// before the folder was scanned (``SnapshotPrefetch``).
    ///
    /// - Throws: ``HostError/configuration(_:)`` when nothing can be served.
    static func make(explicit: String?, last: String?, catalog: ProfileCatalog, folder: String,
                     store: SnapshotStore, scan: RevisionScan, prefetched: SnapshotPrefetch? = nil) throws(HostError) -> StartupPlan {
        let highest = scan.seenAtMost
        var candidates: [String] = []
        if let explicit {
            candidates = [explicit]
        } else {
            for name in [last, "default"].compactMap({ $0 }) + catalog.names where !candidates.contains(name) {
                candidates.append(name)
            }
        }
        var notices: [String]
        for name in candidates {
            guard let resolution = try ProfileResolver.resolve(name, catalog: catalog, store: store, prefetched: prefetched) else {
                continue
            }
            notices = scan.sentences(served: name, resumed: resolution.resumed) + resolution.notices
            // Newer snapshots of it were damaged: set aside while listing
            // (their start) or while reading (the rest of the file).
            let fellBack = resolution.resumed != nil
                && (resolution.fellBack || scan.aboveNewest.contains { $0.profile == name })
            if let resumed = resolution.resumed, resumed.revision >= highest, !fellBack {
                let state = LiveState(profile: name, revision: resumed.revision, layout: resolution.layout,
                                      source: resolution.source, edits: resolution.edits)
                return StartupPlan(state: state, generation: nil, notices: notices)
            }
            let state = LiveState(profile: name, revision: highest + 1, layout: resolution.layout,
                                  source: resolution.source, edits: resolution.edits)
            // An older snapshot resumed because newer ones were damaged is a
            // restore (a new generation and revision, so that revisions never
            // go back); one resumed under another profile's newer revision is
            // a switch of profile; edits rebased onto a file changed while
            // deckd was down are a reload (PROFILE.md §5); anything else is
            // the file's first load.
            let reason = resolution.rebase != nil ? "reload"
                : resolution.resumed == nil ? "load" : fellBack ? "restore" : "useProfile"
            return StartupPlan(state: state, generation: state.snapshot(reason: reason), notices: notices)
        }
        if let explicit {
            let broken = ProfileResolver.brokenFiles(named: explicit, in: catalog)
            if !broken.isEmpty {
                let problems = broken.flatMap(\.problems).map(\.description).joined(separator: "; ")
                throw .configuration("profile '\(explicit)' cannot be served: its file has problems and it has no snapshot: \(problems)")
            }
            let known = catalog.names.isEmpty ? "it holds no valid profile" : "it holds " + catalog.names.joined(separator: ", ")
            throw .configuration("there is no profile named '\(explicit)' in \(folder) (\(known)), and no snapshot of one")
        }
        if catalog.files.isEmpty {
            let state = LiveState(profile: "default", revision: highest + 1, layout: .empty(), source: nil)
            notices = scan.sentences(served: nil, resumed: nil)
            notices.append("the layouts folder \(folder) holds no profile files; serving an empty 'default' layout "
                + "(add buttons from a device, or put a .yaml file there)")
            return StartupPlan(state: state, generation: state.snapshot(reason: "load"), notices: notices)
        }
        throw .configuration("no profile in \(folder) can be served: every profile file has problems "
            + "(run `deckctl check \(folder)/*.yaml`) and none has a snapshot")
    }
}

extension ProfileCatalog {
    /// The problems of the folder as a whole (a profile name two files
    /// give), which no single file's own problems hold.
    static func folderProblems(of catalog: ProfileCatalog) -> [FileProblem] {
        let own = Set(catalog.files.flatMap(\.problems))
        return catalog.problems.filter { !own.contains($0) }
    }
}
