import Testing
@testable import DeckHost
import DeckProtocol

/// A fixed sequence of "random" numbers, so codes are known in advance.
private struct CountingGenerator: RandomNumberGenerator {
    var state: UInt64 = 0x9E3779B97F4A7C15
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
}

@Suite("pairing codes (WEB.md §3)")
struct PairingCodesTests {
    let start = ContinuousClock.now

    @Test func aCodeIsEightCrockfordCharactersShownWithAHyphen() {
        var codes = PairingCodes()
        var generator = CountingGenerator()
        for _ in 0..<200 {
            let code = codes.issue(for: "phone", now: start, using: &generator)
            #expect(code.count == 9 && code[code.index(code.startIndex, offsetBy: 4)] == "-")
            #expect(code.replacingOccurrences(of: "-", with: "").allSatisfy { PairingCode.alphabet.contains($0) })
            #expect(!code.contains { "ILOU".contains($0) })
        }
    }

    @Test func aCodeWorksOnce() {
        var codes = PairingCodes()
        var generator = CountingGenerator()
        let code = codes.issue(for: "phone", now: start, using: &generator)
        #expect(codes.redeem(code, now: start + .seconds(1)) == "phone")
        #expect(codes.redeem(code, now: start + .seconds(2)) == nil)
    }

    @Test func aCodeExpiresAfterItsLifetime() {
        var codes = PairingCodes(lifetime: .seconds(300))
        var generator = CountingGenerator()
        let late = codes.issue(for: "late", now: start, using: &generator)
        let onTime = codes.issue(for: "on time", now: start, using: &generator)
        #expect(codes.redeem(onTime, now: start + .seconds(299)) == "on time")
        #expect(codes.count(at: start + .seconds(299)) == 1)
        #expect(codes.redeem(late, now: start + .seconds(300)) == nil)  // at the instant it expires: gone
        #expect(codes.count(at: start + .seconds(300)) == 0)
    }

    @Test(arguments: ["k7q2-9xmd", "K7Q29XMD", "K7Q2-9XMD", "K7Q2--9XMD"])
    func codesAreReadInAnyCaseWithOrWithoutHyphens(_ text: String) {
        #expect(PairingCode.normalized(text) == "K7Q29XMD")
    }

    @Test func lookAlikeLettersReadAsDigits() {
        #expect(PairingCode.normalized("OOOO-IIII") == "00001111")
        #expect(PairingCode.normalized("oooo-llll") == "00001111")
    }

    /// Crockford's symbols are ASCII. Found by the pairing fuzz target: `uppercased()` turns "ﬁ"
    /// into "FI" and "ß" into "SS", and a Character comparison takes the Kelvin sign for K.
    @Test(arguments: ["", "K7Q2-9XM", "K7Q2-9XMDD", "K7Q2-9XMU", "K7Q2 9XMD", "K7Q2-9XM🙂",
                      "K7\u{FB01}Q2--9\u{212A}", "ßßßß", "ıııı-ıııı", "K7Q2-9XM\u{212A}", "ＫＶＱ２-９ＸＭＤ"])
    func whatCannotBeACodeIsRefused(_ text: String) {
        #expect(PairingCode.normalized(text) == nil)
        var codes = PairingCodes()
        #expect(codes.redeem(text, now: start) == nil)
    }

    @Test func pairingANameAgainReplacesItsCodeAndUnpairRevokesIt() {
        var codes = PairingCodes()
        var generator = CountingGenerator()
        let first = codes.issue(for: "phone", now: start, using: &generator)
        let second = codes.issue(for: "phone", now: start, using: &generator)
        let other = codes.issue(for: "tablet", now: start, using: &generator)
        #expect(codes.redeem(first, now: start) == nil)
        codes.revoke("tablet")
        #expect(codes.redeem(other, now: start) == nil)
        #expect(codes.redeem(second, now: start) == "phone")
    }
}
