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
            let message = Self.problemSentence(broken) + "; the live layout stays"
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

    /// `default.yaml has a problem`, `a.yaml, b.yaml has problems`: the start of a refusal's message.
    static func problemSentence(_ broken: [ProfileCatalog.File]) -> String {
        let files = broken.map(\.fingerprint.file).joined(separator: ", ")
        return "\(files) has \(broken.flatMap(\.problems).count == 1 ? "a problem" : "problems")"
    }

    /// `error invalid` with `message` and every problem of the `broken` files.
    func refusal(_ broken: [ProfileCatalog.File], _ message: String, request: String, id: RequestID?,
                 session: Session) -> [Effect] {
        refusal(ProtocolError(.invalid, message, id: id), request: request, session: session,
                problems: broken.flatMap(\.problems).map(problem))
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

    // MARK: Switching profiles

    /// `useProfile`, or a `profile` button: the profile's layout as §5 of
    /// PROFILE.md resolves it becomes live, as a new revision.
    func switchProfile(to name: String, reason: String, session: Session?, requestID: RequestID?, press: ActionRequest?) {
        let connection = session?.connection.id
        if name == live.head.profile {
            if let connection { submit(Outcome([.ok(connection, requestID, withRevision: true)])) }
            if let press { actionEnded(press, .delivered) }
            return
        }
        if catalog.profile(named: name) == nil, case let broken = ProfileResolver.brokenFiles(named: name, in: catalog),
           !broken.isEmpty {
            // PROFILE.md §4: a profile with any error is not loaded. Its
            // newest snapshot is not served instead (as at start, where
            // something must be): the person who asked hears what is wrong
            // with the file, and the live layout stays as it is.
            let problems = broken.flatMap(\.problems)
            let message = Self.problemSentence(broken) + "; profile '\(name)' is not loaded, and the live layout stays"
            for item in problems { services.logger.warning("\(item)") }
            if let session {
                submit(Outcome(refusal(broken, message, request: "useProfile", id: requestID, session: session)), from: session)
            }
            if let press { actionEnded(press, .failed(reason: message)) }
            return
        }
        let catalog = self.catalog
        onDisk(for: session, { store in
            Result { () throws(HostError) in try ProfileResolver.resolve(name, catalog: catalog, store: store) }
        }, then: { core, result in
            core.finishSwitch(to: name, result, reason: reason, connection: connection, requestID: requestID, press: press)
        })
    }

    private func finishSwitch(to name: String, _ result: Result<ProfileResolution?, HostError>, reason: String,
                              connection: ConnectionID?, requestID: RequestID?, press: ActionRequest?) {
        let session = connection.flatMap { sessions[$0] }
        let resolution: ProfileResolution
        switch result {
        case .success(let found?):
            resolution = found
        case .success(nil), .failure:
            let message: String
            if case .failure(let error) = result {
                message = error.description
            } else {
                let known = catalog.names.isEmpty ? "no valid profile" : catalog.names.joined(separator: ", ")
                message = "there is no profile named '\(name)' (the layouts folder holds \(known))"
            }
            if let session {
                let code: ErrorCode = if case .failure = result { .internal } else { .notFound }
                submit(Outcome(refusal(ProtocolError(code, message, id: requestID), request: "useProfile", session: session)))
            }
            if let press { actionEnded(press, .failed(reason: message)) }
            return
        }
        for notice in resolution.notices { note(notice) }
        let state = live.advance(layout: resolution.layout, profile: name, source: resolution.source, edits: resolution.edits)
        let by = info(session) ?? press?.by
        var effects: [Effect] = []
        if let connection { effects.append(.ok(connection, requestID, withRevision: true)) }
        effects += [.broadcastLayout, .event(.profile(profile: name, revision: state.revision, by: by)),
                    .log(.info, "switched to profile '\(name)' (revision \(state.revision))" + (by.map { " by \($0.name)" } ?? ""))]
        if let press { effects.append(.actionEnded(press, .delivered)) }
        let failures: [WriteFailure] = (connection.map { [.refuse($0, requestID, request: "useProfile")] } ?? [])
            + (press.map { [.actionFailed($0)] } ?? [])
        submit(Outcome(live: state, effects, ifWriteFails: failures), write: state.snapshot(reason: reason))
    }

    // MARK: Export

    /// `export [profile]`: the live layout (or another profile's current
    /// state, as switching to it would make live) as profile YAML.
    func export(_ requested: String?, id: RequestID?, from session: Session) {
        let connection = session.connection.id
        // HostState answers an export of the live profile; this is another's.
        guard let name = requested else { return }
        let catalog = self.catalog
        onDisk(for: session, { store in
            Result { () throws(HostError) in try ProfileResolver.resolve(name, catalog: catalog, store: store) }
        }, then: { core, result in
            guard let session = core.sessions[connection] else { return }
            switch result {
            case .success(let resolution?):
                let yaml = DeckProfile(name: name, layout: resolution.layout).yaml
                core.submit(Outcome([.send(connection, .export(id: id, profile: name, yaml: yaml))]))
            case .success(nil):
                let broken = ProfileResolver.brokenFiles(named: name, in: catalog)
                guard !broken.isEmpty else {
                    core.submit(Outcome(core.refusal(ProtocolError(.notFound, "there is no profile named '\(name)' and no snapshot of one", id: id),
                                                     request: "export", session: session)))
                    return
                }
                // The profile exists, as a broken file with nothing live to
                // export: say what is wrong with it, as useProfile does.
                core.submit(Outcome(core.refusal(broken, Self.problemSentence(broken) + "; profile '\(name)' has no snapshot to export",
                                                 request: "export", id: id, session: session)))
            case .failure(let error):
                core.submit(Outcome(core.refusal(ProtocolError(.internal, error.description, id: id), request: "export", session: session)))
            }
        })
    }
}
