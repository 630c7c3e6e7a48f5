import DeckProtocol

extension HostCore {
    /// The facts of the running process `status` shows beside what the
    /// rules decide (``HostState/status(_:)``).
    var statusFacts: StatusFacts {
        StatusFacts(host: hostInfo, plugins: inputs.plugins?.statuses ?? [], tlsFingerprint: inputs.reachability.fingerprint())
    }
}
