import DeckTransport
import DeckWeb

/// How a device reaches the host, as pairing links and `status` tell it:
/// where the web listener is bound and the fingerprint of the certificate
/// the listeners serve. Learnt as `Host.start` sets the listeners up; no
/// I/O, so tests drive it directly.
struct Reachability {
    /// Where the web listener is bound; nil with `--no-web`.
    var webAddress: SocketAddress?
    /// The served certificate's SHA-256 fingerprint, asked each time: a
    /// SIGHUP may load a new one. A closure, so the core knows nothing else
    /// of the host's TLS; nil without TLS.
    var fingerprint: () -> String? = { nil }

    /// `WEBURL/#pair=CODE` (WEB.md §3), with the fingerprint under TLS;
    /// `base` is `--web-url` when given, else the web listener's address
    /// (https under TLS). Nil without a web listener.
    func pairingLink(_ code: String, base: String?) -> String? {
        guard let webAddress else { return nil }
        let fingerprint = fingerprint()
        let base = base ?? PairingLink.defaultBase(for: webAddress.host, port: webAddress.port,
                                                  scheme: fingerprint == nil ? "http" : "https")
        return PairingLink.link(base: base, code: code, fingerprint: fingerprint)
    }
}
