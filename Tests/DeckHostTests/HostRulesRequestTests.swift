import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// Sessions, the small requests and refused lines as ``HostState`` decides them.
@Suite("HostState rules: sessions, requests and refused lines")
struct HostRulesRequestTests {
    typealias R = Rules

    @Test func anEstablishedClientIsWelcomedInPipelineOrder() throws {
        var host = try R.host()
        _ = host.handle(.opened(ConnectionID(rawValue: 20), peer: "127.0.0.1:4000", host: "127.0.0.1"))
        let info = ClientInfo(name: "pad", kind: "tablet", address: "127.0.0.1:4000", protocolLevel: 6)
        let actions = host.handle(.hello(ConnectionID(rawValue: 20), R.attempt(info, id: "h")))
        #expect(actions == [.admit(ConnectionID(rawValue: 20), ClientAccess(level: 6, isControl: false), issuedToken: nil),
                            .commit(Commit(Outcome([.welcome(ConnectionID(rawValue: 20), id: "h", level: 6)])))])
        #expect(host.sessions[ConnectionID(rawValue: 20)] == SessionState(peer: "127.0.0.1:4000", host: "127.0.0.1", info: info))
    }

    @Test func aPairedDeviceIsSeenWhenItJoinsAndKnownByItsPairedName() throws {
        var host = try R.host()
        let (token, _) = host.auth.pair("pad", now: 100)
        // Its hello says "lee"; the token is pad's (WEB.md §3).
        R.join(&host, ConnectionID(rawValue: 21), R.lee, token: token, rules: R.remote)
        let pad = try #require(host.pairedDevices().first { $0.name == "pad" })
        #expect(pad.connected && pad.lastSeen == UTCTime.format(1000))
        #expect(host.sessions[ConnectionID(rawValue: 21)]?.info?.name == "pad")
        #expect(host.sessions[ConnectionID(rawValue: 21)]?.pairedName == "pad")
    }

    @Test func pingIsPong() throws {
        var host = try R.host()
        #expect(host.handle(.request(R.phone, R.message(.ping, id: "p"))) == [
            .commit(Commit(Outcome([.send(R.phone, .pong(id: "p"))]), sender: R.phone)),
        ])
    }

    @Test func aSecondHelloIsAHandshakeRefusal() throws {
        var host = try R.host()
        let hello = Hello(device: Device(name: "kim", kind: "phone"))
        #expect(host.handle(.request(R.phone, R.message(.hello(hello)))) == [
            R.refused(.handshake, "this connection has already said hello", request: "hello", by: R.phone, who: R.kim),
        ])
    }

    @Test(arguments: [(ClientRequest.status, Effect.status(Rules.control, 1)), (.profiles, .profiles(Rules.control, 1)),
                      (.export(profile: nil), .exportLive(Rules.control, 1)),
                      (.export(profile: "default"), .exportLive(Rules.control, 1))])
    func repliesMadeFromTheCommittedStateAreOneEffect(_ request: ClientRequest, _ effect: Effect) throws {
        var host = try R.host()
        #expect(host.handle(.request(R.control, R.message(request))) == [
            .commit(Commit(Outcome([effect]), sender: R.control)),
        ])
    }

    @Test func subscribingIsSubscribeThenOkThenTheTitles() throws {
        var host = try R.host()
        #expect(host.handle(.request(R.control, R.message(.subscribe))) == [
            .commit(Commit(Outcome([.subscribe(R.control), .ok(R.control, 1, withRevision: false), .titles(R.control)]),
                           sender: R.control)),
        ])
    }

    @Test func devicesListsThePairedDevicesAndWhichAreConnected() throws {
        var host = try R.host()
        let (token, _) = host.auth.pair("pad", now: 100)
        _ = host.auth.pair("old", now: 100)
        R.join(&host, ConnectionID(rawValue: 30), R.lee, token: token, rules: R.remote)
        let effects = try #require(R.commit(host.handle(.request(R.control, R.message(.devices))))).outcome.effects
        guard case .send(R.control, .devices(.some(1), let devices)) = effects.first else {
            Issue.record("expected devices, got \(effects)")
            return
        }
        #expect(devices.map(\.name).sorted() == ["old", "pad"])
        #expect(devices.first { $0.name == "pad" }?.connected == true && devices.first { $0.name == "old" }?.connected == false)
    }

    /// A session that opened and never said hello is not a connected device.
    @Test func aConnectionBeforeItsHelloIsNoConnectedDevice() throws {
        var host = try R.host()
        _ = host.auth.pair("pad", now: 100)
        _ = host.handle(.opened(ConnectionID(rawValue: 31), peer: "10.0.0.9:4000", host: "10.0.0.9"))
        #expect(host.pairedDevices().first?.connected == false)
    }

    @Test func aMalformedLineIsRefusedWithItsTypeAndNoLayout() throws {
        var host = try R.host()
        let error = ProtocolError(.malformed, "press: 'page' must be an integer", id: 2, type: "press")
        #expect(host.handle(.refusedLine(R.phone, error)) == [
            .commit(Commit(Outcome(Effect.refusal(error, request: "press", to: R.phone, by: R.kim, who: "kim")), sender: R.phone)),
        ])
    }

    @Test func aLineWithNoReadableTypeIsARequest() throws {
        var host = try R.host()
        let error = ProtocolError(.malformed, "the line is not valid JSON (at byte 3)")
        let effects = try #require(R.commit(host.handle(.refusedLine(R.phone, error)))).outcome.effects
        #expect(effects.last == .log(.info, "refused a request from kim: malformed: the line is not valid JSON (at byte 3)"))
    }

    /// §5: an edit refused for an invalid button is still followed by the layout, to everyone and the sender.
    @Test func anInvalidEditLineIsFollowedByTheLayout() throws {
        var host = try R.host()
        let error = ProtocolError(.invalid, "setButton: a button name may not be blank", id: 3, type: "setButton")
        #expect(host.handle(.refusedLine(R.phone, error)) == [
            .commit(Commit(Outcome(Effect.refusal(error, request: "setButton", to: R.phone, by: R.kim, who: "kim",
                                                  then: .afterEdit)), sender: R.phone)),
        ])
    }

    @Test func anInvalidPressLineIsNotFollowedByTheLayout() throws {
        var host = try R.host()
        let error = ProtocolError(.invalid, "press: the button breaks a rule", id: 3, type: "press")
        let effects = try #require(R.commit(host.handle(.refusedLine(R.phone, error)))).outcome.effects
        #expect(!effects.contains(.layoutAfterEdit([R.phone])) && !effects.contains(.layoutTo(R.phone)))
    }

    @Test func aRefusalBeforeHelloNamesThePeer() throws {
        var host = try R.host()
        _ = host.handle(.opened(ConnectionID(rawValue: 40), peer: "10.0.0.7:1234", host: "10.0.0.7"))
        let error = ProtocolError(.malformed, "a message needs a string 'type'")
        let effects = try #require(R.commit(host.handle(.refusedLine(ConnectionID(rawValue: 40), error)))).outcome.effects
        #expect(effects.last == .log(.info, "refused a request from 10.0.0.7:1234: malformed: a message needs a string 'type'"))
    }
}
