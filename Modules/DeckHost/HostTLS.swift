import DeckTLS
import DeckTransport

/// How the host gets its TLS certificate (CLI.md `--tls auto`, `--tls-cert`/`--tls-key`).
public enum TLSSetting: Sendable, Equatable {
    /// A self-signed certificate made once and kept in `STATE/tls`.
    case automatic
    /// A certificate (chain) and key in PEM files, re-read on SIGHUP.
    case files(certificate: String, key: String)
}

/// The host's TLS: the certificate loaded at start, installed beneath the
/// framing of every network listener (device port and web listener alike),
/// re-read on SIGHUP. HostCore never sees it: it learns only the
/// fingerprint, as text, for `status` and `pair`. Loop thread only.
final class HostTLS {
    let setting: TLSSetting
    private let source: TLSSource
    private let holder: TLSContextHolder
    /// What loading said (a new self-signed certificate and its fingerprint), for the log.
    let notices: [String]

    /// Loads (or, for `--tls auto`, first makes) the certificate.
    init(_ setting: TLSSetting, stateFolder: String) throws(HostError) {
        self.setting = setting
        switch setting {
        case .automatic: source = .automatic(folder: stateFolder + "/tls")
        case let .files(certificate, key): source = .files(certificate: certificate, key: key)
        }
        do {
            let loaded = try source.load()
            holder = TLSContextHolder(loaded.context)
            notices = loaded.notices
        } catch {
            throw .configuration(error.description)
        }
    }

    /// The SHA-256 fingerprint of the certificate new connections get (64 hex digits).
    var fingerprint: String { holder.context.fingerprint }

    /// Connections this listener accepts from now on speak TLS.
    func install(on listener: Listener) {
        listener.useTLS(holder)
    }

    /// SIGHUP: reads the files again, so a renewed certificate needs no
    /// restart. A file that is now broken keeps the old certificate in use.
    func reload(logger: Logger) {
        let before = holder.context.fingerprint
        do {
            let loaded = try source.load()
            holder.context = loaded.context
            for notice in loaded.notices { logger.warning(notice) }
            if loaded.context.fingerprint != before {
                logger.info("SIGHUP: serving the new TLS certificate (SHA-256 \(loaded.context.fingerprint))")
            }
        } catch {
            logger.error("SIGHUP: \(error); still serving the certificate read before (SHA-256 \(before))")
        }
    }

    /// The one start-up warning of SECURITY.md §2 when a listener off
    /// loopback runs without TLS; nil when there is nothing to say.
    static func plaintextWarning(for listeners: [Listener]) -> String? {
        let exposed = listeners.filter { $0.address.family != .unix && !$0.address.isLoopback }
        guard !exposed.isEmpty else { return nil }
        let places = exposed.map { "\($0.address)" }.joined(separator: " and ")
        return "\(places) serves the network without TLS: device tokens and pairing codes cross it in the clear, "
            + "and anyone on the same Wi-Fi who reads one can press every button; start deckd with --tls auto "
            + "(or --tls-cert FILE --tls-key FILE) to encrypt them"
    }
}
