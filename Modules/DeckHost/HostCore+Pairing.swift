import DeckProtocol

extension HostCore {
    /// `WEBURL/#pair=CODE` (WEB.md §3); nil without a web listener.
    func pairingLink(_ code: String) -> String? {
        inputs.reachability.pairingLink(code, base: services.configuration.webURL)
    }
}
