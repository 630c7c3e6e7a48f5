import DeckModel
import DeckProtocol
import DeckTransport

extension HostCore {
    /// Hands a `run` or `open` action to the runner; its end comes back as
    /// ``HostInput/actionFinished(_:_:)``.
    func startAction(_ request: ActionRequest) {
        let inbox = self.inbox
        services.runner.run(request) { outcome in
            inbox.post(outcome, fromAnyThread: { .actionFinished(request, $0) })
        }
    }

    /// An action ended: its `action` event and log line, as
    /// ``HostState/actionEnded(_:_:detail:)`` words them.
    func actionEnded(_ request: ActionRequest, _ outcome: ActionOutcome, detail: String? = nil) {
        // In place: the end of a press is performed where the effect that ended it stands.
        for action in HostState.actionEnded(request, outcome, detail: detail) { perform(action) }
    }
}
