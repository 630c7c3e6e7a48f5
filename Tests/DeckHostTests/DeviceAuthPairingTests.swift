import DeckProtocol
import Testing
@testable import DeckHost

/// Pairing codes as DeviceAuth decides them at `hello` (WEB.md §3): a code is a
/// credential like a token, with one failure budget per address for both.
@Suite("device auth: pairing codes")
struct DeviceAuthPairingTests {
    static let now = ContinuousClock.now

    static func hello(code: String) -> Hello {
        Hello(device: Device(name: "claims anything", kind: "phone"), pairingCode: code)
    }

    private static func authWithCode(lifetime: Duration = .seconds(300)) -> (DeviceAuth, String) {
        var auth = DeviceAuth(tokens: TokenStore(), path: "/nonexistent/tokens.json", pairingLifetime: lifetime)
        _ = auth.pair("phone", now: 0)
        var generator = SystemRandomNumberGenerator()
        let code = auth.pairing.issue(for: "phone", now: now, using: &generator)
        return (auth, code)
    }

    @Test func aGoodCodePairsOnceEvenWhereNoTokenIsNeeded() {
        var (auth, code) = Self.authWithCode()
        #expect(auth.authenticate(Self.hello(code: code), required: false, from: "127.0.0.1", now: Self.now)
            == .acceptedByCode(pairedName: "phone"))
        #expect(auth.authenticate(Self.hello(code: code), required: false, from: "127.0.0.1", now: Self.now) == .invalidCode)
    }

    @Test func anExpiredCodeIsInvalid() {
        var (auth, code) = Self.authWithCode(lifetime: .seconds(300))
        #expect(auth.authenticate(Self.hello(code: code), required: true, from: "10.0.0.2", now: Self.now + .seconds(300))
            == .invalidCode)
    }

    @Test func wrongCodesAndTokensShareOneBudget() {
        var (auth, code) = Self.authWithCode()
        for _ in 0..<5 {
            #expect(auth.authenticate(Self.hello(code: "ZZZZ-ZZZZ"), required: true, from: "10.0.0.2", now: Self.now) == .invalidCode)
        }
        for _ in 0..<5 {
            let bad = Hello(device: Device(name: "n", kind: "phone"), token: "nope")
            #expect(auth.authenticate(bad, required: true, from: "10.0.0.2", now: Self.now) == .invalidToken)
        }
        #expect(auth.authenticate(Self.hello(code: code), required: true, from: "10.0.0.2", now: Self.now) == .blocked)
        // Another address is not held back, and the code was not spent by the blocked attempt.
        #expect(auth.authenticate(Self.hello(code: code), required: true, from: "10.0.0.3", now: Self.now)
            == .acceptedByCode(pairedName: "phone"))
    }

    @Test func unpairRevokesTheCode() {
        var (auth, code) = Self.authWithCode()
        _ = auth.unpair("phone")
        #expect(auth.authenticate(Self.hello(code: code), required: false, from: "127.0.0.1", now: Self.now) == .invalidCode)
    }
}
