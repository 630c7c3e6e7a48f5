import DeckModel
import DeckPlugins
import DeckProfiles
import DeckProtocol
import DeckTransport

extension HostState {
    /// Someone asked for a scan of the layouts folder: `connection` is the
    /// control client that sent `reload` (nil: SIGHUP or the watcher).
    ///
    /// With `plugins` (`deckctl reload`, SIGHUP) the plugins folders are read
    /// in the same disk job and applied first, so the reply to `reload` comes
    /// after both: a `status` sent once it arrives shows what the reload found,
    /// and a profile that brings a new plugin finds it installed.
    mutating func reload(requestedBy connection: ConnectionID?, id: RequestID?, plugins: Bool) -> HostAction {
        // A save supersedes a watcher's scan still in progress; whoever asked
        // (deckctl reload, SIGHUP) is answered with what their scan read.
        let ticket = reloads.requested(answered: connection != nil || plugins)
        return disk(.scanLayouts(ticket, previous: catalog, plugins: plugins), for: connection,
                    then: .reload(connection, id, ticket))
    }

    /// A scan finished: the plugins it read are applied first, then the
    /// profiles, unless a newer save superseded the scan.
    mutating func scanned(_ scan: LayoutScan, ticket: ReloadGenerations.Ticket, requester: ConnectionID?,
                          id: RequestID?) -> [HostAction] {
        var actions: [HostAction] = []
        if let fresh = scan.plugins, !stopping { actions += pluginsReloaded(fresh) }
        guard reloads.finished(ticket) == .apply, let result = scan.profiles.unwrapped else {
            return actions + [.log(.info, "a newer save of the layouts folder superseded scan \(ticket.generation); "
                                   + "the newer one goes live instead")]
        }
        let present = requester.flatMap { sessions[$0] == nil ? nil : $0 }
        switch result {
        case .success(let catalog):
            return actions + applyReload(catalog, requester: present, id: id, explicit: requester != nil)
        case .failure(let error):
            actions.append(.log(.error, "could not reload the profiles: \(error)"))
            if let present {
                actions.append(.commit(Commit(Outcome(refusal(ProtocolError(.internal, "could not reload the profiles: \(error)",
                                                                            id: id), request: "reload", to: present)))))
            }
            return actions
        }
    }

    /// The active profile's file decides: changed and valid → it becomes
    /// live (a new revision, the edits since its last load replayed on it);
    /// unchanged → the live layout, client edits included, stays; broken →
    /// the live layout stays and the problems are reported (`invalid` to
    /// whoever asked).
    mutating func applyReload(_ scanned: ProfileCatalog, requester connection: ConnectionID?, id: RequestID?,
                              explicit: Bool) -> [HostAction] {
        let changes = scanned.changes(since: catalog.fingerprints)
        // A name two files now share is a problem of the folder, which may
        // fall on a file that did not change: logged here, as at start.
        let known = ProfileCatalog.folderProblems(of: catalog)
        var actions: [HostAction] = ProfileCatalog.folderProblems(of: scanned).filter { !known.contains($0) }
            .map { .log(.warning, $0.description) }
        catalog = scanned
        actions += settingsWarnings(files: explicit ? nil : changes.added + changes.changed)
        let active = live.head.profile
        let by = connection.flatMap { sessions[$0]?.info }
        let activeFile = scanned.profile(named: active)
        let broken = ProfileResolver.brokenFiles(named: active, in: scanned)
        for file in changes.all where !(activeFile?.fingerprint.file == file) && !broken.contains(where: { $0.fingerprint.file == file }) {
            actions += otherFileChanged(file, in: scanned, removed: changes.removed.contains(file))
        }
        if let activeFile, ProfileResolver.snapshotSource(of: activeFile.fingerprint) != live.head.source {
            // PROFILE.md §5: the edits made since the file's last load are
            // replayed on the new file; what cannot be is named.
            let rebase = EditRebase(live.head.edits, onto: activeFile.profile.layout)
            let file = activeFile.fingerprint.file
            let state = live.advance(layout: rebase.layout, source: ProfileResolver.snapshotSource(of: activeFile.fingerprint),
                                     edits: rebase.kept)
            var effects: [Effect] = []
            if let connection { effects.append(.ok(connection, id, withRevision: true)) }
            effects += [.broadcastLayout,
                        .rebased(profile: active, file: file, rebase, revision: state.revision, by: by,
                                 log: "reloaded '\(active)' from \(file) (revision \(state.revision))\(byline(connection))")]
            let failures: [WriteFailure] = connection.map { [.refuse($0, id, request: "reload")] } ?? []
            return actions + [.commit(Commit(Outcome(live: state, effects, ifWriteFails: failures), writeReason: "reload"))]
        }
        if activeFile == nil, !broken.isEmpty {
            let problems = broken.flatMap(\.problems)
            actions += problems.map { .log(.warning, "\($0) (the live layout of '\(active)' stays)") }
            let message = Self.problemSentence(broken) + "; the live layout stays"
            var effects: [Effect] = [.event(.reload(profile: active, revision: nil, problems: problems.map(problem), by: by))]
            if let connection {
                effects.insert(.send(connection, .error(id: id, code: .invalid, message: message, problems: problems.map(problem))), at: 0)
            }
            return actions + [.commit(Commit(Outcome(effects)))]
        }
        var effects: [Effect] = []
        if let connection { effects.append(.ok(connection, id, withRevision: true)) }
        if explicit || changes.all.contains(where: { $0 == activeFile?.fingerprint.file }) {
            effects.append(.event(.reload(profile: active, revision: live.head.revision, problems: [], by: by)))
        }
        if activeFile == nil {
            effects.append(.log(.warning, "profile '\(active)' has no file in \(layoutsPath) any more; its live layout stays"))
        } else if explicit {
            effects.append(.log(.info, "reloaded the profiles\(byline(connection)); '\(active)' did not change, its live layout stays"))
        }
        return actions + [.commit(Commit(Outcome(effects)))]
    }

    /// A profile file other than the live one changed: log it, tell
    /// subscribers at once (news, not a reply: outside the pipeline).
    private func otherFileChanged(_ file: String, in scanned: ProfileCatalog, removed: Bool) -> [HostAction] {
        if removed { return [.log(.info, "\(file) was removed")] }
        guard let entry = scanned.files.first(where: { $0.fingerprint.file == file }) else { return [] }
        let name = entry.profile?.name ?? DeckProfile.stem(of: file)
        let logs: [HostAction] = entry.problems.isEmpty
            ? [.log(.info, "read \(file) (profile '\(name)')")]
            : entry.problems.map { .log(.warning, "\($0)") }
        return logs + [.perform(.event(.reload(profile: name, revision: nil, problems: entry.problems.map(problem), by: nil)))]
    }
}

/// What a scan of the layouts folder (and, for `reload` and SIGHUP, the
/// plugins folders) found on the disk thread.
struct LayoutScan: Sendable {
    /// The folder as read, nil when the scan gave up for a newer save.
    var profiles: Result<ProfileCatalog?, DeckProfilesError>
    /// The plugins folders as read, when the reload asked for them.
    var plugins: PluginCatalog?
}

extension ReloadGenerations.Ticket: Equatable {
    /// Two tickets are the same reload (the shared counter is the same for every ticket of a host).
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.generation == rhs.generation && lhs.abandonable == rhs.abandonable
    }
}
