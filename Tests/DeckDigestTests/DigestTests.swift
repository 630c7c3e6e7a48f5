import DeckDigest
import Testing

/// The digests against published test vectors (FIPS 180's examples, RFC 6455 §1.3's accept key).
@Suite struct DigestTests {
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11", "b37a4f2cc0624f1690f64606cf385945b2bec4ea"),
    ])
    func sha1MatchesItsVectors(text: String, digest: String) {
        #expect(Digest.hex(Digest.sha1(Array(text.utf8))) == digest)
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func sha256MatchesItsVectors(text: String, digest: String) {
        #expect(Digest.hex(Digest.sha256(text.utf8)) == digest)
    }

    @Test func aSliceIsHashedAsItsBytes() {
        let bytes = Array("xxabcxx".utf8)
        #expect(Digest.sha1(bytes[2..<5]) == Digest.sha1(Array("abc".utf8)))
        #expect(Digest.sha256(bytes[2..<5]) == Digest.sha256(Array("abc".utf8)))
    }
}
