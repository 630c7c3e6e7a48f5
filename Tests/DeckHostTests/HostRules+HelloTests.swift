import DeckProtocol
import DeckTestSupport
import Testing
@testable import DeckHost
@testable import DeckTransport

/// A connection's first line (PROTOCOL.md §2, §9; WEB.md §3): the shell
/// decodes the hello, the rules decide its credentials with DeviceAuth and
/// return the admission or the refusal as actions.
@Suite("HostState rules: the hello's credentials")
struct HostRulesHelloTests {
    typealias R = Rules

    static let newcomer = ConnectionID(rawValue: 60)
    static let pad = ClientInfo(name: "pad", kind: "tablet", address: "10.0.0.9:4000", protocolLevel: 7)

    /// Opens connection 60 from 10.0.0.9 and hands the rules its hello.
    static func hello(_ host: inout HostState, token: String? = nil, code: String? = nil,
                      rules: Handshake.Rules = R.remote, id: ConnectionID = newcomer) -> [HostAction] {
        _ = host.handle(.opened(id, peer: pad.address, host: "10.0.0.9"))
        return host.handle(.hello(id, R.attempt(pad, id: "h", token: token, code: code, rules: rules)))
    }

    static func refusal(_ message: String, id: ConnectionID = newcomer) -> [HostAction] {
        [.log(.info, "refused a connection from 10.0.0.9:4000: unauthorized: \(message)"),
         .refuseConnection(id, ProtocolError(.unauthorized, message, id: "h"))]
    }

    @Test func aRemoteHelloWithoutATokenIsRefusedAndClosed() throws {
        var host = try R.host()
        #expect(Self.hello(&host) == Self.refusal(
            "this host needs a device token; pair the device with `deckctl pair NAME` on the host"))
        #expect(host.sessions[Self.newcomer]?.info == nil)
    }

    @Test func aPairedTokenIsAdmittedUnderItsPairedName() throws {
        var host = try R.host()
        let (token, _) = host.auth.pair("pad", now: 10)
        #expect(Self.hello(&host, token: token) == [
            .admit(Self.newcomer, ClientAccess(level: 7, isControl: false), issuedToken: nil),
            .commit(Commit(Outcome([.welcome(Self.newcomer, id: "h", level: 7)]))),
        ])
        #expect(host.sessions[Self.newcomer]?.info == Self.pad && host.sessions[Self.newcomer]?.pairedName == "pad")
    }

    @Test func tenWrongTokensFromAnAddressBlockItEvenForAGoodOne() throws {
        var host = try R.host()
        let (token, _) = host.auth.pair("pad", now: 10)
        let wrong = "the token is not valid (never paired, or unpaired); pair the device again with `deckctl pair NAME`"
        for attempt in 0..<10 {
            #expect(Self.hello(&host, token: "guess\(attempt)", id: ConnectionID(rawValue: 100 + UInt64(attempt)))
                == Self.refusal(wrong, id: ConnectionID(rawValue: 100 + UInt64(attempt))))
        }
        #expect(Self.hello(&host, token: token) == Self.refusal(
            "too many failed tokens from this address; wait a minute before trying again"))
        // Another address is not blocked.
        _ = host.handle(.opened(ConnectionID(rawValue: 61), peer: "10.0.0.10:1", host: "10.0.0.10"))
        #expect(host.handle(.hello(ConnectionID(rawValue: 61), R.attempt(Self.pad, token: token, rules: R.remote))).first
                == .admit(ConnectionID(rawValue: 61), ClientAccess(level: 7, isControl: false), issuedToken: nil))
    }

    @Test func aPairingCodeAdmitsOnceAndTheWelcomeCarriesTheNewToken() throws {
        var host = try R.host()
        let (token, _) = host.auth.pair("pad", now: 10)
        var generator = SeededGenerator(seed: 3)
        let code = host.auth.pairing.issue(for: "pad", now: host.environment.instantNow(), using: &generator)
        #expect(Self.hello(&host, code: code).first
                == .admit(Self.newcomer, ClientAccess(level: 7, isControl: false), issuedToken: token))
        #expect(Self.hello(&host, code: code, id: ConnectionID(rawValue: 62)) == Self.refusal(
            "the pairing code is wrong, already used or expired; run `deckctl pair NAME` on the host for a new one",
            id: ConnectionID(rawValue: 62)))
    }

    @Test func aLoopbackHelloNeedsNoTokenAndAControlClientOnlyItsSocket() throws {
        var host = try R.host()
        #expect(Self.hello(&host, rules: R.loopback).first
                == .admit(Self.newcomer, ClientAccess(level: 7, isControl: false), issuedToken: nil))
        _ = host.handle(.opened(ConnectionID(rawValue: 63), peer: "control", host: ""))
        let deckctl = ClientInfo(name: "deckctl", kind: "control", address: "control", protocolLevel: 7)
        #expect(host.handle(.hello(ConnectionID(rawValue: 63), R.attempt(deckctl, rules: R.controlSocket))).first
                == .admit(ConnectionID(rawValue: 63), ClientAccess(level: 7, isControl: true), issuedToken: nil))
        #expect(host.sessions[ConnectionID(rawValue: 63)]?.isControl == true)
    }

    @Test func aFirstLineThatIsNoHelloIsLoggedAndTheConnectionClosed() throws {
        var host = try R.host()
        _ = host.handle(.opened(Self.newcomer, peer: "10.0.0.9:4000", host: "10.0.0.9"))
        let error = ProtocolError(.handshake, "the first message must be 'hello'", id: 1)
        #expect(host.handle(.helloRefused(Self.newcomer, error)) == [
            .log(.info, "refused a connection from 10.0.0.9:4000: handshake: the first message must be 'hello'"),
            .refuseConnection(Self.newcomer, error),
        ])
    }

    /// A `.note` is kept for `status` by the rules as it is decided; the shell only logs it.
    @Test func aNoteIsKeptForStatusByTheRules() throws {
        var host = try R.host()
        let lost = "the layouts folder /layouts was removed; saves are not reloaded until it is back"
        #expect(host.handle(.folderWatch(.lost(lost))) == [.note(lost, level: .warning)])
        #expect(host.notices.all == [lost])
    }
}
