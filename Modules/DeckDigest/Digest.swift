internal import CNettle

/// SHA-1 and SHA-256 by nettle, for the host's web listener (the WebSocket
/// accept key, face image hashes, ETags) and for plugins (the obs plugin's
/// WebSocket client and obs-websocket authentication): one implementation,
/// in a module of its own so neither side depends on the other and a device
/// app's DeckModel stays free of C libraries.
package enum Digest {
    /// The 20 bytes of SHA-1 (RFC 6455's accept key; never for security).
    package static func sha1(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var context = sha1_ctx()
        nettle_sha1_init(&context)
        var digest = [UInt8](repeating: 0, count: Int(SHA1_DIGEST_SIZE))
        withContiguous(bytes) { nettle_sha1_update(&context, $0.count, $0.baseAddress) }
        digest.withUnsafeMutableBufferPointer { nettle_sha1_digest(&context, $0.count, $0.baseAddress) }
        return digest
    }

    /// The 32 bytes of SHA-256.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var context = sha256_ctx()
        nettle_sha256_init(&context)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        withContiguous(bytes) { nettle_sha256_update(&context, $0.count, $0.baseAddress) }
        digest.withUnsafeMutableBufferPointer { nettle_sha256_digest(&context, $0.count, $0.baseAddress) }
        return digest
    }

    /// Lower-case hexadecimal of `bytes` (a digest as a file name or ETag).
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    private static func withContiguous(_ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if bytes.withContiguousStorageIfAvailable(body) == nil { Array(bytes).withUnsafeBufferPointer(body) }
    }
}
