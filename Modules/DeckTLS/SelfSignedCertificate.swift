internal import COpenSSL

/// Makes the certificate of `--tls auto`: a new ECDSA P-256 key and a
/// self-signed certificate naming the machine (SECURITY.md §2).
enum SelfSignedCertificate {
    /// 825 days: the longest validity Apple's platforms accept for a TLS
    /// server certificate, even one the user chose to trust, so an iPhone
    /// can use it; deckd makes a new one when fewer than 30 days are left.
    static let validDays = 825

    /// PEM texts of a new key (PKCS #8) and its certificate.
    static func make(names: SubjectNames) throws(TLSError) -> (key: [UInt8], certificate: [UInt8]) {
        OpenSSLErrors.clear()
        guard let key = newKey() else { throw failure("cannot make an ECDSA P-256 key") }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { throw failure("out of memory") }
        defer { X509_free(certificate) }
        try fill(certificate, key: key, names: names)
        guard let keyPEM = pem({ PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }),
              let certificatePEM = pem({ PEM_write_bio_X509($0, certificate) }) else {
            throw failure("cannot write PEM")
        }
        return (keyPEM, certificatePEM)
    }

    private static func newKey() -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
              EVP_PKEY_keygen(context, &key) == 1 else { return nil }
        return key
    }

    private static func fill(_ certificate: OpaquePointer, key: OpaquePointer, names: SubjectNames) throws(TLSError) {
        guard X509_set_version(certificate, 2) == 1,  // 2 means X.509 v3 (extensions)
              let serial = BN_new() else { throw failure("cannot start the certificate") }
        defer { BN_free(serial) }
        // A random 127-bit serial: positive, unique, as RFC 5280 asks.
        guard BN_rand(serial, 127, 0, 0) == 1, BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(certificate)) != nil,
              X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) != nil,  // an hour back for skewed clocks
              X509_gmtime_adj(X509_getm_notAfter(certificate), validDays * 86_400) != nil,
              X509_set_pubkey(certificate, key) == 1,
              let subject = X509_get_subject_name(certificate) else { throw failure("cannot fill the certificate") }
        let common = names.commonName
        guard X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, "deckd", -1, -1, 0) == 1,
              X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, common, -1, -1, 0) == 1,
              X509_set_issuer_name(certificate, subject) == 1 else { throw failure("cannot name the certificate") }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, certificate, certificate, nil, nil, 0)
        let extensions: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_alt_name, names.subjectAltName),
            (NID_subject_key_identifier, "hash"),
        ]
        for (nid, value) in extensions {
            guard let made = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw failure("cannot add the extension \(value)")
            }
            defer { X509_EXTENSION_free(made) }
            guard X509_add_ext(certificate, made, -1) == 1 else { throw failure("cannot add the extension \(value)") }
        }
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else { throw failure("cannot sign the certificate") }
    }

    private static func pem(_ write: (OpaquePointer) -> Int32) -> [UInt8]? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let count = deck_BIO_get_mem_data(bio, &data)
        guard count > 0, let data else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: count))
    }

    private static func failure(_ what: String) -> TLSError {
        .context("\(what): \(OpenSSLErrors.drain(fallback: "no reason given"))")
    }
}
