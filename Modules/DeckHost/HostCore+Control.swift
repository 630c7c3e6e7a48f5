import DeckProfiles
import DeckProtocol
import DeckSnapshots
import DeckTransport
import LockGate

extension HostCore {
    /// The control requests of PROTOCOL.md §7 whose rules are still here,
    /// not in ``HostState`` (only control clients get here).
    func control(_ message: ClientMessage, from session: Session) {
        let id = message.id
        switch message.request {
        case .pair(let name):
            pair(name, id: id, from: session)
        case .unpair(let name):
            unpair(name, id: id, from: session)
        case .reload:
            reload(requestedBy: session, id: id, plugins: true)
        case .useProfile(let name):
            switchProfile(to: name, reason: "useProfile", session: session, requestID: id, press: nil)
        case .export(let profile):
            export(profile, id: id, from: session)
        case .restartPlugin(let plugin):
            restartPlugin(plugin, id: id, from: session)
        default:
            submit(Outcome(refusal(ProtocolError(.unsupported, "\(message.kind.rawValue) is not a control request", id: id),
                                   request: message.kind.rawValue, session: session)), from: session)
        }
    }

    /// The `status` reply, from the committed state.
    func status() -> HostStatus {
        let clients = state.sessions.values.compactMap(\.info).sorted { ($0.name, $0.address) < ($1.name, $1.address) }
        var names = catalog.names
        if !names.contains(live.committed.profile) { names = (names + [live.committed.profile]).sorted() }
        return HostStatus(host: hostInfo, profile: live.committed.profile, revision: live.committed.revision, locked: lock.isLocked,
                          clients: clients, profiles: names, problems: catalog.problems.map(problem) + pluginProblems,
                          notices: notices.all, plugins: inputs.plugins?.statuses ?? [],
                          tlsFingerprint: inputs.reachability.fingerprint())
    }

    /// The `profiles` reply: every valid profile, the live one as it is live.
    func profilesReply(id: RequestID?) -> HostMessage {
        var infos = catalog.profiles.map { file -> ProfileInfo in
            let layout = file.profile.name == live.committed.profile ? live.committed.layout : file.profile.layout
            return ProfileInfo(name: file.profile.name, file: file.fingerprint.file, pages: layout.pages.count,
                               buttons: layout.buttonCount)
        }
        if !infos.contains(where: { $0.name == live.committed.profile }) {
            let file = live.committed.source?.file ?? ""
            infos.append(ProfileInfo(name: live.committed.profile, file: file, pages: live.committed.layout.pages.count,
                                     buttons: live.committed.layout.buttonCount))
            infos.sort { $0.name < $1.name }
        }
        return .profiles(id: id, active: live.committed.profile, profiles: infos)
    }

    /// `pair NAME`: a new token, on disk before it is shown. Pairing a name
    /// again revokes its old token as `unpair` would: the connections that
    /// presented it are closed (none can hold the new one before it is shown).
    private func pair(_ name: String, id: RequestID?, from session: Session) {
        let (token, undo) = auth.pair(name, now: UTCTime.now())
        let connection = session.connection.id
        saveTokens(for: session, undo: undo, request: "pair", id: id) { core in
            core.services.logger.info("paired a device as '\(name)'" + (undo.device == nil ? "" : ", replacing its old token")
                             + core.byline(core.sessions[connection]))
            core.revoke(pairedAs: name)
            var generator = SystemRandomNumberGenerator()  // getrandom(2), as for tokens
            let code = core.auth.pairing.issue(for: name, now: .now, using: &generator)
            let seconds = Int(core.auth.pairing.lifetime.components.seconds)
            let offer = PairingOffer(code: code, link: core.pairingLink(code),
                                     expires: UTCTime.format(UTCTime.now() + seconds))
            return [.closeRevoked(pairedAs: name), .send(connection, .paired(id: id, name: name, token: token, pairing: offer))]
        }
    }

    /// `unpair NAME`: the token is forgotten at once (a new hello with it is
    /// refused), then written, then that device's connections are closed.
    private func unpair(_ name: String, id: RequestID?, from session: Session) {
        guard let undo = auth.unpair(name) else {
            submit(Outcome(refusal(ProtocolError(.notFound, "no device is paired as '\(name)'", id: id), request: "unpair",
                                   session: session)), from: session)
            return
        }
        let connection = session.connection.id
        saveTokens(for: session, undo: undo, request: "unpair", id: id) { core in
            core.services.logger.info("unpaired '\(name)'\(core.byline(core.sessions[connection]))")
            core.revoke(pairedAs: name)
            return [.closeRevoked(pairedAs: name), .ok(connection, id, withRevision: false)]
        }
    }

    /// The connections that presented `name`'s token, now revoked and
    /// saved so, are no longer read from; ``Effect/closeRevoked(pairedAs:)``
    /// closes them in pipeline order.
    private func revoke(pairedAs name: String) {
        for device in sessions.values where state.sessions[device.connection.id]?.pairedName == name {
            device.revoked = true
            device.updateReading()
        }
    }

    /// Writes the tokens; on failure `undo` takes this one change back and
    /// the sender gets `internal`. Once written, the effects `saved` returns
    /// go into the pipeline: closing the revoked connections behind the
    /// replies still owed to them, so none is dropped.
    private func saveTokens(for session: Session, undo: DeviceAuth.Undo, request: String, id: RequestID?,
                            then saved: @escaping (HostCore) -> [Effect]) {
        let store = auth.tokens
        let path = auth.path
        let connection = session.connection.id
        onDisk(for: session, { _ in
            Result { () throws(HostError) in try TokenStore.save(store, path: path) }
        }, then: { core, result in
            switch result {
            case .success:
                core.submit(Outcome(saved(core)))
            case .failure(let error):
                core.auth.undo(undo)
                guard let session = core.sessions[connection] else { return }
                core.submit(Outcome(core.refusal(ProtocolError(.internal, "could not save the device tokens: \(error)", id: id),
                                                 request: request, session: session)))
            }
        })
    }
}
