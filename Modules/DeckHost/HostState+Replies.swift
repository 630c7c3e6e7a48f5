import DeckModel
import DeckProfiles
import DeckProtocol

/// What `status` shows that the rules cannot know: facts of the running
/// process the shell reads when the reply is made (the plugin processes'
/// states, the certificate served now: SIGHUP may change it).
struct StatusFacts: Equatable {
    /// The host as `welcome` and `status` name it.
    var host: HostInfo
    /// Each plugin's process as the plugin manager sees it now.
    var plugins: [PluginStatus]
    /// The served certificate's fingerprint, when the web listener has TLS.
    var tlsFingerprint: String?
}

extension HostState {
    /// The `status` reply, from the committed state and `facts`.
    func status(_ facts: StatusFacts) -> HostStatus {
        let clients = sessions.values.compactMap(\.info).sorted { ($0.name, $0.address) < ($1.name, $1.address) }
        var names = catalog.names
        if !names.contains(live.committed.profile) { names = (names + [live.committed.profile]).sorted() }
        return HostStatus(host: facts.host, profile: live.committed.profile, revision: live.committed.revision,
                          locked: lock.isLocked, clients: clients, profiles: names,
                          problems: catalog.problems.map(problem) + pluginProblems + followProblems,
                          notices: notices.all, plugins: facts.plugins, tlsFingerprint: facts.tlsFingerprint)
    }

    /// Follows that keep exiting at once, as `status` problems of the live
    /// profile's file (line and column 0: the problem is the running
    /// command, not a place in the file).
    var followProblems: [Problem] {
        let file = live.committed.source?.file ?? "profile '\(live.committed.profile)'"
        return follows.problems.map { Problem(file: file, line: 0, column: 0, message: $0) }
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

    /// A reload's rebase is durable (``Effect/rebased(profile:file:_:revision:by:log:)``):
    /// what tells subscribers, the log and `status` what it kept and
    /// dropped. The generation just before the reload's own is the one
    /// `restore` brings back. Performed in place, among its outcome's effects.
    mutating func rebaseReported(profile: String, file: String, _ rebase: EditRebase, revision: Int, by: ClientInfo?,
                                 log: String) -> [HostAction] {
        noted(rebaseReport(profile: profile, file: file, rebase, revision: revision, by: by, log: log))
    }

    private func rebaseReport(profile: String, file: String, _ rebase: EditRebase, revision: Int, by: ClientInfo?,
                              log: String) -> [HostAction] {
        let report = RebaseReport(profile: profile, file: file, rebase: rebase, generation: live.generationBeforeWritten)
        var actions: [HostAction] = [
            .perform(.event(.reload(profile: profile, revision: revision, problems: [], dropped: report.events, by: by))),
            .log(.info, log + (rebase.kept.isEmpty && rebase.dropped.isEmpty && rebase.adopted.isEmpty ? "" : "; " + report.summary)),
        ]
        actions += report.sentences.map { .note($0, level: .warning) }
        return actions
    }
}
