import DeckModel
import DeckProfiles
import DeckProtocol
import DeckSnapshots
import DeckTransport

extension HostState {
    /// `snapshots [profile]`: the history, newest first, read on the disk thread.
    mutating func snapshots(of requested: String?, id: RequestID?, from connection: ConnectionID) -> HostAction {
        let profile = requested ?? live.head.profile
        let known = profile == live.head.profile || catalog.profile(named: profile) != nil
            || !ProfileResolver.brokenFiles(named: profile, in: catalog).isEmpty
        return disk(.listSnapshots(profile: profile), for: connection,
                    then: .snapshots(connection, id, profile: profile, known: known))
    }

    /// `restore GENERATION`: that snapshot of the live profile is read on the
    /// disk thread; ``diskFinished(_:_:)`` makes it live.
    mutating func restore(_ generation: Int, id: RequestID?, from connection: ConnectionID) -> HostAction {
        let profile = live.head.profile
        return disk(.readSnapshot(profile: profile, generation: generation), for: connection,
                    then: .restore(connection, id, profile: profile, generation: generation))
    }

    /// A disk job's result, continuing the request it answers (nothing when
    /// its sender left meanwhile).
    mutating func diskFinished(_ waiting: Waiting, _ result: DiskResult) -> [HostAction] {
        switch (waiting, result) {
        case let (.restore(connection, id, profile, generation), .snapshot(read)):
            guard sessions[connection] != nil else { return [] }
            return restored(read, profile: profile, generation: generation, id: id, to: connection)
        case let (.snapshots(connection, id, profile, known), .listing(listing)):
            guard sessions[connection] != nil else { return [] }
            return listed(listing, profile: profile, known: known, id: id, to: connection)
        case let (.tokens(connection, id, name, change, undo), .saved(saved)):
            return tokensSaved(saved, name: name, change: change, undo: undo, id: id, to: connection)
        case let (.resolve(name, resolving), .resolution(resolution)):
            return resolved(name, resolution, for: resolving)
        case let (.reload(requester, id, ticket), .scanned(scan)):
            return scanned(scan, ticket: ticket, requester: requester, id: id)
        default:
            return [.log(.error, "a disk job's result did not match the request it answers (\(waiting)); nothing was changed")]
        }
    }

    private func listed(_ result: Result<SnapshotListing, SnapshotError>, profile: String, known: Bool, id: RequestID?,
                        to connection: ConnectionID) -> [HostAction] {
        switch result {
        case .success(let listing) where known || !listing.snapshots.isEmpty:
            let infos = listing.snapshots.map {
                DeckProtocol.SnapshotInfo(generation: $0.generation, revision: $0.revision,
                                          time: UTCTime.format(Int($0.time.timeIntervalSince1970)), reason: $0.reason, bytes: $0.bytes)
            }
            return listing.notices.map { .note($0.message, level: .warning) }
                + [.commit(Commit(Outcome([.send(connection, .snapshots(id: id, profile: profile, snapshots: infos))])))]
        case .success:
            return [refusedLater(ProtocolError(.notFound, "there is no profile named '\(profile)' and no snapshot of one", id: id),
                                 request: "snapshots", to: connection)]
        case .failure(let error):
            let code: ErrorCode = if case .invalidProfileName = error { .notFound } else { .internal }
            return [refusedLater(ProtocolError(code, error.description, id: id), request: "snapshots", to: connection)]
        }
    }

    private mutating func restored(_ result: Result<Snapshot, SnapshotError>, profile: String, generation: Int, id: RequestID?,
                                   to connection: ConnectionID) -> [HostAction] {
        let snapshot: Snapshot
        switch result {
        case .success(let read):
            snapshot = read
        case .failure(let error):
            var actions: [HostAction] = []
            let code: ErrorCode
            switch error {
            case .notFound: code = .notFound
            case .corrupt(let notice):
                actions.append(.note(notice.message, level: .warning))
                code = .notFound
            default: code = .internal
            }
            return actions + [refusedLater(ProtocolError(code, error.description, id: id), request: "restore", to: connection)]
        }
        guard live.head.profile == profile else {
            return [refusedLater(ProtocolError(.invalid, "the live profile changed while restoring; send restore again", id: id),
                                 request: "restore", to: connection)]
        }
        // The restored layout keeps the live source: it is the live state
        // of the file as it is now, so it survives a restart.
        // For the next rebase it counts as the edits that turn the file's layout into it (PROFILE.md §5).
        let edits = EditRebase.changes(from: live.head.fileLayout, to: snapshot.layout)
        let state = live.advance(layout: snapshot.layout, edits: edits)
        return [.commit(Commit(Outcome(live: state, [
            .ok(connection, id, withRevision: true), .broadcastLayout,
            .event(.restore(profile: profile, generation: generation, revision: state.revision, by: sessions[connection]?.info)),
            .log(.info, "restored generation \(generation) of '\(profile)' (revision \(state.revision))\(byline(connection))"),
        ], ifWriteFails: [.refuse(connection, id, request: "restore")]), writeReason: "restore", sender: connection))]
    }

    /// A refusal that answers a disk job: its sender is not paused for it
    /// (it was not reading while the job ran).
    private func refusedLater(_ error: ProtocolError, request: String, to connection: ConnectionID) -> HostAction {
        .commit(Commit(Outcome(refusal(error, request: request, to: connection))))
    }
}
