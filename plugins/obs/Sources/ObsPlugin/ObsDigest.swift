import DeckDigest
import DeckModel

/// obs-websocket's authentication string, from DeckDigest's SHA-256 and
/// DeckModel's base64 (the WebSocket key check uses DeckDigest's SHA-1 directly).
enum ObsDigest {
    /// obs-websocket v5's answer to a Hello's challenge:
    /// `base64(sha256(base64(sha256(password + salt)) + challenge))`.
    static func authentication(password: String, salt: String, challenge: String) -> String {
        let secret = Base64.encode(Digest.sha256(Array((password + salt).utf8)))
        return Base64.encode(Digest.sha256(Array((secret + challenge).utf8)))
    }
}
