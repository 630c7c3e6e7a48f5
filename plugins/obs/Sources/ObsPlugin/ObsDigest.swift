import DeckModel
internal import CNettle

/// SHA-256 and SHA-1 by nettle (base64 is DeckModel's): obs-websocket's
/// authentication string and the WebSocket handshake's key check.
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

    /// obs-websocket v5's answer to a Hello's challenge:
    /// `base64(sha256(base64(sha256(password + salt)) + challenge))`.
    static func authentication(password: String, salt: String, challenge: String) -> String {
        let secret = Base64.encode(sha256(Array((password + salt).utf8)))
        return Base64.encode(sha256(Array((secret + challenge).utf8)))
    }
}
