internal import COpenSSL

/// A configured OpenSSL context: the certificate, its key and the protocol
/// rules of SECURITY.md §2. Every TLS connection of a listener is made from
/// one context; a reload (SIGHUP) makes a new one, and connections already
/// open keep the one they were made with.
public final class TLSContext: @unchecked Sendable {
    // @unchecked Sendable: the SSL_CTX is fully configured in `init` and never
    // changed afterwards; OpenSSL documents a configured SSL_CTX as safe to
    // share between threads for SSL_new (its reference count is atomic), and
    // it is freed only in `deinit`, when no Swift reference remains.
    let context: OpaquePointer
    /// The SHA-256 fingerprint of the leaf certificate, 64 lowercase hex digits.
    public let fingerprint: String
    /// Whether connections made from it are servers (the host) or clients (tests, tools).
    let isServer: Bool

    /// TLS 1.2's cipher suites: ECDHE key exchange only (forward secrecy),
    /// AEAD ciphers only (no CBC, RC4, 3DES, SHA-1 MACs). TLS 1.3's suites
    /// are all forward-secret AEAD and keep OpenSSL's defaults.
    static let tls12Ciphers = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
        + "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
        + "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"
    /// Key exchange groups, strongest common first; no finite-field DH.
    static let groups = "X25519:P-256:P-384"

    /// A server context from a certificate (chain) and key in PEM files
    /// (`--tls-cert`, `--tls-key`, or the files `--tls auto` keeps).
    public convenience init(certificateFile: String, keyFile: String) throws(TLSError) {
        try self.init(server: { context throws(TLSError) in
            OpenSSLErrors.clear()
            guard SSL_CTX_use_certificate_chain_file(context, certificateFile) == 1 else {
                throw .certificate(path: certificateFile, reason: OpenSSLErrors.drain(fallback: "not a PEM certificate"))
            }
            guard SSL_CTX_use_PrivateKey_file(context, keyFile, SSL_FILETYPE_PEM) == 1 else {
                // OpenSSL compares the key with the certificate as it loads it.
                if ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH {
                    OpenSSLErrors.clear()
                    throw .keyMismatch(certificate: certificateFile, key: keyFile)
                }
                throw .privateKey(path: keyFile, reason: OpenSSLErrors.drain(fallback: "not a PEM private key"))
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                OpenSSLErrors.clear()
                throw .keyMismatch(certificate: certificateFile, key: keyFile)
            }
        })
    }

    private init(server load: (OpaquePointer) throws(TLSError) -> Void) throws(TLSError) {
        let context = try Self.makeContext(method: TLS_server_method())
        do throws(TLSError) {
            try load(context)
            // The server picks the suite: a client offering a weak one first gets a strong one.
            SSL_CTX_set_options(context, deck_SSL_OP_CIPHER_SERVER_PREFERENCE)
            guard let leaf = SSL_CTX_get0_certificate(context) else {
                throw TLSError.context("no certificate loaded")
            }
            fingerprint = try TLSCertificate.fingerprint(of: leaf)
        } catch {
            SSL_CTX_free(context)
            throw error
        }
        self.context = context
        isServer = true
    }

    /// A client context that trusts the CA certificates in `trustFile` (PEM)
    /// and checks the server's name; for tests and tools, never the host.
    package init(clientTrusting trustFile: String) throws(TLSError) {
        let context = try Self.makeContext(method: TLS_client_method())
        OpenSSLErrors.clear()
        guard SSL_CTX_load_verify_locations(context, trustFile, nil) == 1 else {
            SSL_CTX_free(context)
            throw .certificate(path: trustFile, reason: OpenSSLErrors.drain())
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        self.context = context
        fingerprint = ""
        isServer = false
    }

    /// The rules every context shares: TLS 1.2 and 1.3 only, forward-secret
    /// AEAD suites, no compression, no renegotiation, buffers released while idle.
    private static func makeContext(method: OpaquePointer?) throws(TLSError) -> OpaquePointer {
        guard let context = SSL_CTX_new(method) else {
            throw .context(OpenSSLErrors.drain(fallback: "SSL_CTX_new failed"))
        }
        var ok = deck_SSL_CTX_set_min_proto_version(context, deck_TLS1_2_VERSION) == 1
        ok = ok && deck_SSL_CTX_set_max_proto_version(context, deck_TLS1_3_VERSION) == 1
        ok = ok && SSL_CTX_set_cipher_list(context, tls12Ciphers) == 1
        ok = ok && deck_SSL_CTX_set1_groups_list(context, groups) == 1
        guard ok else {
            let reason = OpenSSLErrors.drain(fallback: "protocol versions, ciphers or groups")
            SSL_CTX_free(context)
            throw .context(reason)
        }
        SSL_CTX_set_options(context, deck_SSL_OP_NO_COMPRESSION | deck_SSL_OP_NO_RENEGOTIATION)
        // Many idle devices: the 34 KiB read and write buffers are freed between records.
        _ = deck_SSL_CTX_set_mode(context, deck_SSL_MODE_RELEASE_BUFFERS | deck_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER)
        return context
    }

    /// Seconds until the leaf certificate expires (negative once it has).
    var secondsLeft: Int {
        SSL_CTX_get0_certificate(context).map(TLSCertificate.secondsLeft) ?? -1
    }

    deinit {
        SSL_CTX_free(context)
    }
}
