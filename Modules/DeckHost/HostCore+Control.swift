import DeckProfiles
import DeckProtocol
import DeckSnapshots
import DeckTransport
import LockGate

extension HostCore {
    /// The `status` reply, from the committed state.
    func status() -> HostStatus {
        let clients = state.sessions.values.compactMap(\.info).sorted { ($0.name, $0.address) < ($1.name, $1.address) }
        var names = catalog.names
        if !names.contains(live.committed.profile) { names = (names + [live.committed.profile]).sorted() }
        return HostStatus(host: hostInfo, profile: live.committed.profile, revision: live.committed.revision, locked: lock.isLocked,
                          clients: clients, profiles: names, problems: catalog.problems.map(problem) + state.pluginProblems + followProblems,
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
}
