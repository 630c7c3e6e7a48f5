internal import COpenSSL

/// Facts about an X.509 certificate that deck shows or checks.
enum TLSCertificate {
    /// SHA-256 over the certificate's DER bytes, as 64 lowercase hex digits:
    /// what browsers show as the certificate's fingerprint and what a native
    /// device pins (`#pair=CODE&fp=HEX`).
    static func fingerprint(of certificate: OpaquePointer) throws(TLSError) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1, length == 32 else {
            throw .context(OpenSSLErrors.drain(fallback: "cannot hash the certificate"))
        }
        return hex(digest[0..<Int(length)])
    }

    /// Seconds from now until the certificate stops being valid (negative once it has).
    static func secondsLeft(_ certificate: OpaquePointer) -> Int {
        var days: Int32 = 0
        var seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, nil, X509_get0_notAfter(certificate)) == 1 else { return -1 }
        return Int(days) * 86_400 + Int(seconds)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
