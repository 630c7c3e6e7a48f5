/// Why TLS could not be set up or a TLS connection failed.
public enum TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The peer's first bytes were not a TLS handshake record: a plain client
    /// on a TLS port. It is closed without an answer (SECURITY.md §2).
    case notTLS
    /// The TLS handshake failed (OpenSSL's reason, e.g. "no shared cipher").
    case handshake(String)
    /// A record after the handshake could not be read or written.
    case record(String)
    /// A certificate file could not be used.
    case certificate(path: String, reason: String)
    /// A private key file could not be used.
    case privateKey(path: String, reason: String)
    /// The key does not belong to the certificate.
    case keyMismatch(certificate: String, key: String)
    /// The self-signed certificate of `--tls auto` could not be made or kept.
    case selfSigned(folder: String, reason: String)
    /// OpenSSL refused a setting of the context (a library too old, say).
    case context(String)

    /// A sentence the user can act on.
    public var description: String {
        switch self {
        case .notTLS:
            return "the client did not start a TLS handshake (a plain connection on a TLS port)"
        case let .handshake(reason):
            return "the TLS handshake failed: \(reason)"
        case let .record(reason):
            return "a TLS record could not be processed: \(reason)"
        case let .certificate(path, reason):
            return "\(path): cannot use this certificate (\(reason)); give a PEM certificate (chain) with --tls-cert"
        case let .privateKey(path, reason):
            return "\(path): cannot use this private key (\(reason)); give the certificate's PEM key with --tls-key"
        case let .keyMismatch(certificate, key):
            return "\(key) is not the private key of \(certificate); give the key the certificate was issued for"
        case let .selfSigned(folder, reason):
            return "cannot make or keep the self-signed certificate in \(folder): \(reason); "
                + "make the folder writable by deckd, or give --tls-cert and --tls-key"
        case let .context(reason):
            return "OpenSSL refused a TLS setting: \(reason); deckd needs OpenSSL 3 or later"
        }
    }
}
