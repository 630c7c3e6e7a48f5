import DeckProtocol
import DeckWeb

extension HostCore {
    /// `WEBURL/#pair=CODE` (WEB.md §3); nil without a web listener.
    func pairingLink(_ code: String) -> String? {
        guard let address = webAddress else { return nil }
        let fingerprint = certificateFingerprint()
        let base = configuration.webURL
            ?? PairingLink.defaultBase(for: address.host, port: address.port, scheme: fingerprint == nil ? "http" : "https")
        return PairingLink.link(base: base, code: code, fingerprint: fingerprint)
    }

    /// The `devices` reply: every paired device, by name.
    func pairedDevices() -> [PairedDeviceInfo] {
        let connected = Set(sessions.values.compactMap { $0.info == nil ? nil : $0.pairedName })
        return auth.tokens.devices.sorted { $0.name < $1.name }.map { device in
            PairedDeviceInfo(name: device.name, pairedAt: device.created, lastSeen: seen[device.name].map(UTCTime.format),
                             connected: connected.contains(device.name))
        }
    }
}
