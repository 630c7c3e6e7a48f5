@testable import DeckModel
import Testing

/// The package's base64 against RFC 4648 §10's vectors, and its refusals.
@Suite struct Base64Tests {
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func rfcVectors(_ plain: String, _ encoded: String) throws {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(try Base64.decode(encoded) == Array(plain.utf8))
        #expect(try Base64.decode(String(encoded.prefix { $0 != "=" })) == Array(plain.utf8), "unpadded")
    }

    @Test func everyByteRoundTrips() throws {
        let bytes = (0..<256).map { UInt8($0) } + (0..<256).map { UInt8(255 - $0) }
        for length in 0...bytes.count where length % 37 == 0 || length < 8 {
            let slice = Array(bytes.prefix(length))
            #expect(try Base64.decode(Base64.encode(slice)) == slice)
        }
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    }

    @Test(arguments: ["Zm9v\n", "Zg", "Z", "Zm9=v", "Zg===", "Z===", "€€€€", "Zm-_"])
    func refusals(_ text: String) {
        if text == "Zg" { #expect((try? Base64.decode(text)) == [0x66]); return }
        #expect(throws: Base64.DecodingError.self) { try Base64.decode(text) }
    }

    /// A space or a line break inside is what to fix, though it also breaks
    /// the length or the padding: the refusal named the padding.
    @Test(arguments: [("Zm9v YmE=", "' ' at character 5 is not base64"),
                      ("Zm9vY\nmE=", "byte 10 at character 6 is not base64"),
                      ("Zm9vY mFy", "' ' at character 6 is not base64"),
                      ("Zm9vYmE==", "the padding '=' does not end a group of four characters"),
                      ("Zm9vY", "its length (5 characters) is not one a base64 encoder makes")])
    func theFirstForeignCharacterIsNamedFirst(_ text: String, _ reason: String) {
        #expect(throws: Base64.DecodingError(description: reason)) { try Base64.decode(text) }
    }

    @Test func limitStopsBeforeDecoding() {
        #expect(throws: Base64.DecodingError(description: "it decodes to 6 bytes, more than 5")) { try Base64.decode("Zm9vYmFy", limit: 5) }
        #expect((try? Base64.decode("Zm9vYmE=", limit: 5)) == Array("fooba".utf8))
    }
}
