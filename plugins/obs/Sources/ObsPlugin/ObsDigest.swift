internal import CNettle

/// SHA-256, SHA-1 and base64 by nettle: obs-websocket's authentication
/// string and the WebSocket handshake's key check.
enum ObsDigest {
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var context = sha256_ctx()
        nettle_sha256_init(&context)
        bytes.withUnsafeBufferPointer { nettle_sha256_update(&context, $0.count, $0.baseAddress) }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        digest.withUnsafeMutableBufferPointer { nettle_sha256_digest(&context, $0.count, $0.baseAddress) }
        return digest
    }

    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var context = sha1_ctx()
        nettle_sha1_init(&context)
        bytes.withUnsafeBufferPointer { nettle_sha1_update(&context, $0.count, $0.baseAddress) }
        var digest = [UInt8](repeating: 0, count: Int(SHA1_DIGEST_SIZE))
        digest.withUnsafeMutableBufferPointer { nettle_sha1_digest(&context, $0.count, $0.baseAddress) }
        return digest
    }

    static func base64(_ bytes: [UInt8]) -> String {
        var encoded = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4)
        encoded.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                out.baseAddress!.withMemoryRebound(to: CChar.self, capacity: out.count) {
                    nettle_base64_encode_raw($0, input.count, input.baseAddress)
                }
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The bytes of standard base64 text; nil when it is not valid base64.
    static func unbase64(_ text: Substring) -> [UInt8]? {
        let input = Array(text.utf8)
        var context = base64_decode_ctx()
        nettle_base64_decode_init(&context)
        var decoded = [UInt8](repeating: 0, count: input.count / 4 * 3 + 3)
        var length = decoded.count
        let ok = decoded.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { bytes in
                bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    nettle_base64_decode_update(&context, &length, out.baseAddress, bytes.count, $0) == 1
                }
            }
        }
        guard !input.isEmpty, ok, nettle_base64_decode_final(&context) == 1 else { return nil }
        return Array(decoded[0..<length])
    }

    /// obs-websocket v5's answer to a Hello's challenge:
    /// `base64(sha256(base64(sha256(password + salt)) + challenge))`.
    static func authentication(password: String, salt: String, challenge: String) -> String {
        let secret = base64(sha256(Array((password + salt).utf8)))
        return base64(sha256(Array((secret + challenge).utf8)))
    }
}
