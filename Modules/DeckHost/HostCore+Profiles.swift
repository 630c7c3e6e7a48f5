import DeckModel
import DeckProfiles
import DeckProtocol
import DeckSnapshots
import DeckTransport

extension HostCore {
    // MARK: Reload

    /// Re-reads the layouts folder (off the loop), then applies what changed.
    /// `session` is the control client that asked (nil: SIGHUP or the watcher).
    ///
    /// With `plugins` (`deckctl reload`, SIGHUP) the plugins folders are read
    /// in the same disk job and applied first, so the reply to `reload` comes
    /// after both: a `status` sent once it arrives shows what the reload found,
    /// and a profile that brings a new plugin finds it installed.
    func reload(requestedBy session: Session?, id: RequestID?, plugins: Bool = false) {
        // A layouts folder that was replaced where its parent could not be
        // watched is watched again now, if it is back.
        inputs.watcher?.rearm()
        let folder = self.folder
        let previous = catalog
        let scanPlugins = plugins ? pluginScan : nil
        // A save supersedes a watcher's scan still in progress; whoever asked
        // (deckctl reload, SIGHUP) is answered with what their scan read.
        let ticket = inputs.reloads.requested(answered: session != nil || plugins)
        let logger = services.logger
        onDisk(for: session, { _ in
            logger.debug("scan \(ticket.generation) of the layouts folder started")
            return (profiles: Result { () throws(DeckProfilesError) in
                try folder.scan(reusing: previous, giveUpWhen: { ticket.superseded }, parsing: { file, bytes in
                    logger.debug("scan \(ticket.generation) parses \(file) (\(bytes) bytes)")
                })
            }, plugins: scanPlugins?())
        }, then: { core, scanned in
            if let plugins = scanned.plugins { core.applyPlugins(plugins) }
            guard core.inputs.reloads.finished(ticket) == .apply, let result = scanned.profiles.unwrapped else {
                core.services.logger.info("a newer save of the layouts folder superseded scan \(ticket.generation); the newer one goes live instead")
                return
            }
            let connection = session?.connection.id
            switch result {
            case .success(let catalog):
                core.applyReload(catalog, requester: connection.flatMap { core.sessions[$0] }, id: id,
                                 explicit: session != nil)
            case .failure(let error):
                core.services.logger.error("could not reload the profiles: \(error)")
                if let connection, let session = core.sessions[connection] {
                    core.submit(Outcome(core.refusal(ProtocolError(.internal, "could not reload the profiles: \(error)", id: id),
                                                     request: "reload", session: session)))
                }
            }
        })
    }

    /// The active profile's file decides: changed and valid → it becomes
    /// live (a new revision); unchanged → the live layout, client edits
    /// included, stays; broken → the live layout stays and the problems are
    /// reported (`invalid` to whoever asked).
    func applyReload(_ scanned: ProfileCatalog, requester: Session?, id: RequestID?, explicit: Bool) {
        let changes = scanned.changes(since: catalog.fingerprints)
        // A name two files now share is a problem of the folder, which may
        // fall on a file that did not change: logged here, as at start.
        for problem in ProfileCatalog.folderProblems(of: scanned) where !ProfileCatalog.folderProblems(of: catalog).contains(problem) {
            services.logger.warning(problem.description)
        }
        catalog = scanned
        logSettingsProblems(of: explicit ? nil : changes.added + changes.changed)
        let active = live.head.profile
        let connection = requester?.connection.id
        let activeFile = scanned.profile(named: active)
        let broken = ProfileResolver.brokenFiles(named: active, in: scanned)
        for file in changes.all where !(activeFile?.fingerprint.file == file) && !broken.contains(where: { $0.fingerprint.file == file }) {
            reportOtherFile(file, in: scanned, removed: changes.removed.contains(file))
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
                        .rebased(profile: active, file: file, rebase, revision: state.revision, by: info(requester),
                                 log: "reloaded '\(active)' from \(file) (revision \(state.revision))\(byline(requester))")]
            submit(Outcome(live: state, effects, ifWriteFails: connection.map { [.refuse($0, id, request: "reload")] } ?? []),
                   write: state.snapshot(reason: "reload"))
            return
        }
        if activeFile == nil, !broken.isEmpty {
            let problems = broken.flatMap(\.problems)
            for item in problems { services.logger.warning("\(item) (the live layout of '\(active)' stays)") }
            let message = HostState.problemSentence(broken) + "; the live layout stays"
            var effects: [Effect] = [.event(.reload(profile: active, revision: nil, problems: problems.map(problem), by: info(requester)))]
            if let connection {
                effects.insert(.send(connection, .error(id: id, code: .invalid, message: message, problems: problems.map(problem))), at: 0)
            }
            submit(Outcome(effects))
            return
        }
        var effects: [Effect] = []
        if let connection { effects.append(.ok(connection, id, withRevision: true)) }
        if explicit || changes.all.contains(where: { $0 == activeFile?.fingerprint.file }) {
            effects.append(.event(.reload(profile: active, revision: live.head.revision, problems: [], by: info(requester))))
        }
        if activeFile == nil {
            effects.append(.log(.warning, "profile '\(active)' has no file in \(folder.path) any more; its live layout stays"))
        } else if explicit {
            effects.append(.log(.info, "reloaded the profiles\(byline(requester)); '\(active)' did not change, its live layout stays"))
        }
        submit(Outcome(effects))
    }

    /// A profile file other than the live one changed: log it, tell subscribers.
    private func reportOtherFile(_ file: String, in scanned: ProfileCatalog, removed: Bool) {
        if removed {
            services.logger.info("\(file) was removed")
            return
        }
        guard let entry = scanned.files.first(where: { $0.fingerprint.file == file }) else { return }
        let name = entry.profile?.name ?? DeckProfile.stem(of: file)
        if entry.problems.isEmpty {
            services.logger.info("read \(file) (profile '\(name)')")
        } else {
            for item in entry.problems { services.logger.warning("\(item)") }
        }
        emit(.reload(profile: name, revision: nil, problems: entry.problems.map(problem), by: nil))
    }
}
