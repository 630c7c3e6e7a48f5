import DeckProtocol

extension HostCore {
    /// `WEBURL/#pair=CODE` (WEB.md §3); nil without a web listener.
    func pairingLink(_ code: String) -> String? {
        inputs.reachability.pairingLink(code, base: services.configuration.webURL)
    }

    /// The `devices` reply: every paired device, by name.
    func pairedDevices() -> [PairedDeviceInfo] {
        auth.devices(connected: Set(sessions.values.compactMap { $0.info == nil ? nil : $0.pairedName }))
    }
}
