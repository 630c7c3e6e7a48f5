@testable import DeckHost
import DeckProtocol
import Testing

@Suite("TLS options and pairing codes in DeviceAuth")
struct TLSAndPairingCodeTests {
    static let environment = ["HOME": "/home/kim"]

    static func parse(_ arguments: [String]) throws(HostError) -> HostConfiguration? {
        guard case .run(let configuration) = try HostArguments.parse(arguments, environment: environment) else { return nil }
        return configuration
    }

    @Test func tlsOptions() throws {
        #expect(try Self.parse([])?.tls == nil)
        #expect(try Self.parse(["--tls", "auto"])?.tls == .automatic)
        #expect(try Self.parse(["--tls-cert", "c.pem", "--tls-key", "k.pem"])?.tls == .files(certificate: "c.pem", key: "k.pem"))
        // The later of --tls and --tls-cert wins, as for --listen and --no-tcp.
        #expect(try Self.parse(["--tls", "auto", "--tls-cert", "c.pem", "--tls-key", "k.pem"])?.tls
            == .files(certificate: "c.pem", key: "k.pem"))
    }

    @Test(arguments: [
        (["--tls", "on"], "must be auto"),
        (["--tls-cert", "c.pem"], "--tls-cert needs --tls-key FILE as well"),
        (["--tls-key", "k.pem"], "--tls-key only goes with --tls-cert"),
        // --tls-key stays behind when a later --tls replaces --tls-cert.
        (["--tls-cert", "c.pem", "--tls-key", "k.pem", "--tls", "auto"], "--tls-key only goes with --tls-cert"),
    ])
    func tlsMistakes(arguments: [String], words: String) {
        #expect(throws: HostError.self) { try Self.parse(arguments) }
        do {
            _ = try Self.parse(arguments)
        } catch {
            #expect(error.description.contains(words), "\(error.description)")
        }
    }

    static func hello(code: String?, token: String? = nil) -> Hello {
        Hello(device: Device(name: "browser", kind: "phone"), token: token, pairingCode: code)
    }

    @Test func aPairingCodeIsOneDecisionLikeATokenWithTheSameBudget() {
        let now = ContinuousClock.now
        var auth = DeviceAuth(tokens: TokenStore(), path: "/nonexistent/tokens.json",
                              limiter: FailedAttemptLimiter(limit: 2, window: .seconds(60)))
        _ = auth.pair("kim", now: 0)
        var generator = SystemRandomNumberGenerator()
        let code = auth.pairing.issue(for: "kim", now: now, using: &generator)
        // Checked even where no token is needed (loopback): it pairs the device.
        #expect(auth.authenticate(Self.hello(code: code), required: false, from: "a", now: now) == .acceptedByCode(pairedName: "kim"))
        #expect(auth.authenticate(Self.hello(code: code), required: true, from: "a", now: now) == .invalidCode, "used once")
        // Two failures in all (a code, then a token): the address is blocked for both.
        #expect(auth.authenticate(Self.hello(code: nil, token: "guess"), required: true, from: "a", now: now) == .invalidToken)
        let fresh = auth.pairing.issue(for: "kim", now: now, using: &generator)
        #expect(auth.authenticate(Self.hello(code: fresh), required: true, from: "a", now: now) == .blocked)
        #expect(auth.authenticate(Self.hello(code: fresh), required: true, from: "b", now: now) == .acceptedByCode(pairedName: "kim"))
    }

    @Test func unpairingRevokesTheNamesCodes() {
        let now = ContinuousClock.now
        var auth = DeviceAuth(tokens: TokenStore(), path: "/nonexistent/tokens.json")
        _ = auth.pair("kim", now: 0)
        var generator = SystemRandomNumberGenerator()
        let code = auth.pairing.issue(for: "kim", now: now, using: &generator)
        #expect(auth.unpair("kim") != nil)
        #expect(auth.authenticate(Self.hello(code: code), required: true, from: "a", now: now) == .invalidCode)
    }

    @Test func theHandshakeTakesNoCodeOnTheControlSocket() {
        var handshake = Handshake()
        let rules = Handshake.Rules(isControlSocket: true, peerIsLoopback: true, requireToken: false)
        var seen: Hello?
        let action = handshake.step(ClientMessage(id: 1, .hello(Self.hello(code: "K7Q2-9XMD"))).line(), rules: rules) { hello, _ in
            seen = hello
            return .accepted(pairedName: nil)
        }
        guard case .establish(_, _, _, nil, false) = action else {
            Issue.record("expected an unpaired establish, got \(action)")
            return
        }
        #expect(seen?.pairingCode == nil)
    }
}
