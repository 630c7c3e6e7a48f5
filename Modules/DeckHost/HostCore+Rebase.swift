import DeckModel
import DeckProtocol

extension HostCore {
    /// A reload's rebase is durable (``Effect/rebased(profile:file:_:revision:by:log:)``):
    /// tells subscribers, the log and `status` what it kept and dropped. The
    /// generation just before the reload's own is the one `restore` brings back.
    func reportRebase(profile: String, file: String, _ rebase: EditRebase, revision: Int, by: ClientInfo?, log: String) {
        let report = RebaseReport(profile: profile, file: file, rebase: rebase, generation: live.generationBeforeWritten)
        emit(.reload(profile: profile, revision: revision, problems: [], dropped: report.events, by: by))
        perform(HostAction.log(.info, log + (rebase.kept.isEmpty && rebase.dropped.isEmpty ? "" : "; " + report.summary)))
        for sentence in report.sentences { note(sentence) }
    }
}
