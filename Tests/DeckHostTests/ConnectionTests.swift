import DeckModel
import DeckProtocol
import DeckTestSupport
import DeckTransport
import Foundation
import Testing

@Suite("Connections end to end: tokens, limits, handshake")
struct ConnectionTests {
    @Test func tokensOnLoopbackWithRequireToken() throws {
        let host = try startedHost(arguments: ["--require-token"])
        let control = try host.controlClient()
        // Missing and wrong tokens: unauthorized, then closed.
        let missing = try host.rawDevice()
        #expect(throws: HarnessError.self) { try missing.hello(name: "phone", kind: "phone") }
        #expect(missing.isClosed())
        let wrong = try host.rawDevice()
        #expect(throws: HarnessError.self) { try wrong.hello(name: "phone", kind: "phone", token: "bad") }
        #expect(wrong.isClosed())
        // A paired token works; unpair closes that device.
        let paired = try control.request(.pair(name: "Kim's phone"))
        guard case .paired(_, "Kim's phone", let token, _) = paired else { Issue.record("\(paired)"); return }
        #expect(token.count == 43)
        let phone = try host.device("phone", token: token)
        #expect(try phone.request(.ping).type == "pong")
        let info = try FileManager.default.attributesOfItem(atPath: host.state + "/tokens.json")
        #expect((info[.posixPermissions] as? Int) == 0o600)
        try control.expectOK(.unpair(name: "Kim's phone"))
        #expect(phone.isClosed())
        try control.expectError(.unpair(name: "Kim's phone"), .notFound)
        #expect(throws: HarnessError.self) { try host.device("phone", token: token) }
    }

    /// Pairing a name again replaces its token, which revokes the old one as
    /// `unpair` does: connections that presented it are closed (a lost phone
    /// is cut off by pairing its replacement under the same name), other
    /// devices stay.
    @Test func pairingANameAgainClosesTheConnectionsOfItsOldToken() throws {
        let host = try startedHost(arguments: ["--require-token"])
        let control = try host.controlClient()
        let watcher = try host.controlClient("watcher")
        #expect(try watcher.expectOK(.subscribe) == nil)
        guard case .paired(_, _, let old, _) = try control.request(.pair(name: "Kim's phone")),
              case .paired(_, _, let other, _) = try control.request(.pair(name: "tablet")) else { Issue.record("no tokens"); return }
        let lost = try host.device("lost phone", token: old)
        let tablet = try host.device("tablet", token: other)
        guard case .paired(_, _, let new, _) = try control.request(.pair(name: "Kim's phone")) else { Issue.record("no token"); return }
        #expect(new != old)
        #expect(lost.isClosed())
        // Known by the name it was paired as (WEB.md §3), not the one its hello claimed.
        let leave = try watcher.next { if case .event(.leave(let client, _)) = $0 { client.name == "Kim's phone" } else { false } }
        guard case .event(.leave(_, let reason)) = leave else { Issue.record("\(leave)"); return }
        #expect(reason == "unpaired")
        #expect(try tablet.request(.ping).type == "pong")
        #expect(throws: HarnessError.self) { try host.device("lost phone", token: old) }
        #expect(try host.device("new phone", token: new).request(.ping).type == "pong")
    }

    @Test func tenFailedTokensAMinuteBlockTheAddress() throws {
        let host = try startedHost(arguments: ["--require-token"])
        let control = try host.controlClient()
        guard case .paired(_, _, let token, _) = try control.request(.pair(name: "tablet")) else { Issue.record("no token"); return }
        for _ in 0..<10 {
            #expect(throws: HarnessError.self) { try host.device(token: "guess") }
        }
        let blocked = try host.rawDevice()
        let reply = try blocked.request(.hello(Hello(device: Device(name: "t", kind: "tablet"), token: token)))
        guard case .error(_, .unauthorized, let message, _) = reply else { Issue.record("\(reply)"); return }
        #expect(message.contains("too many"))
        // The control socket is not affected.
        #expect(try control.status().clients.count == 1)
    }

    @Test func aSilentConnectionIsClosedAfterTheHelloTimeout() throws {
        let host = try startedHost(arguments: ["--hello-timeout", "200"])
        let silent = try host.rawDevice()
        guard case .error(_, .handshake, _, _) = try silent.next(timeout: .seconds(3)) else { Issue.record("no handshake error"); return }
        #expect(silent.isClosed())
        #expect(try host.device().request(.ping).type == "pong")
    }

    @Test func aTooLargeLineClosesOnlyThatClient() throws {
        let host = try startedHost(arguments: ["--max-message", "300"])
        let a = try host.device("a")
        let big = try host.device("big")
        try big.line.send(#"{"type":"ping","pad":""# + String(repeating: "x", count: 400) + #""}"#)
        guard case .error(_, .tooLarge, _, _) = try big.next() else { Issue.record("no tooLarge"); return }
        #expect(big.isClosed())
        #expect(try a.request(.ping).type == "pong")
    }

    /// Before `hello` a peer is anyone: its first line may be 64 KiB, not
    /// `--max-message` (250 unfinished 1 MiB lines held ~260 MB for 10 s).
    /// Every line after the `hello` has the usual limit.
    @Test func theHelloLineHasItsOwnLimitAndLaterLinesTheUsualOne() throws {
        let host = try startedHost()
        let stranger = try host.rawDevice()
        try stranger.line.send(#"{"type":"hello","protocol":7,"device":{"name":"x","kind":"phone"},"pad":""#
            + String(repeating: "x", count: 70_000) + #""}"#)
        guard case .error(_, .tooLarge, let message, _) = try stranger.next() else { Issue.record("no tooLarge"); return }
        #expect(message.contains("65536 for the first line, hello"), "\(message)")
        #expect(stranger.isClosed())
        let device = try host.device("after hello")
        try device.line.send(#"{"type":"ping","id":7,"pad":""# + String(repeating: "x", count: 500_000) + #""}"#)
        #expect(try device.next().type == "pong")
    }

    @Test func beyondMaxConnectionsANewClientGetsBusy() throws {
        let host = try startedHost(arguments: ["--max-connections", "2"])
        let a = try host.device("a")
        let b = try host.device("b")
        let refused = try host.rawDevice()
        guard case .error(_, .busy, _, _) = try refused.next() else { Issue.record("no busy"); return }
        #expect(refused.isClosed())
        for client in [a, b] { #expect(try client.request(.ping).type == "pong") }
        // The control socket has its own limit.
        #expect(try host.controlClient().status().clients.count == 3)
    }

    @Test func handshakeErrorsAndLevels() throws {
        let host = try startedHost()
        let first = try host.rawDevice()
        try first.send(.ping)
        guard case .error(_, .handshake, _, _) = try first.next() else { Issue.record("no handshake error"); return }
        #expect(first.isClosed())
        let old = try host.rawDevice()
        try old.hello(name: "old", kind: "phone", level: 3)
        #expect(old.welcome?.protocolLevel == 3)
        let button = try #require(old.welcomeLayout.button(page: 0, index: 1))
        try old.expectError(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 2, button: button), .unsupported)
        try old.expectError(.hello(Hello(device: Device(name: "again", kind: "phone"))), .handshake)
        #expect(try old.request(.ping).type == "pong")
        let zero = try host.rawDevice()
        #expect(throws: HarnessError.self) { try zero.hello(name: "zero", kind: "phone", level: 0) }
        #expect(zero.isClosed())
    }
}

@Suite("Hostile input end to end")
struct HostileInputTests {
    /// Random lines — broken JSON, wrong types, huge numbers, deep nesting,
    /// every request type with random fields — never crash the host or stop
    /// it from serving others.
    @Test func randomLinesNeverHurtTheHost() throws {
        let host = try startedHost()
        let attacker = try host.device("attacker")
        let bystander = try host.device("bystander")
        var generator = SeededGenerator(seed: 99)
        let types = RequestKind.allCases.map(\.rawValue) + ["", "nope", "layout", "welcome"]
        let values = ["0", "-1", "1e400", "9223372036854775808", "\"x\"", "null", "true", "[]", "{}", "0.5",
                      #"{"name":"B","action":{"run":"true"}}"#, #"{"name":"","action":{}}"#, String(repeating: "[", count: 70)]
        let fields = ["page", "index", "fromPage", "fromIndex", "toPage", "toIndex", "button", "expecting", "phase", "name",
                      "generation", "profile", "id", "protocol", "device", "token"]
        var sent = 0
        for _ in 0..<400 {
            var line: String
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                line = String((0..<Int.random(in: 1..<60, using: &generator)).map { _ in
                    Character(UnicodeScalar(UInt8.random(in: 0x20...0x7E, using: &generator)))
                })
            default:
                let type = types.randomElement(using: &generator) ?? "ping"
                var members = [#""type":"\#(type)""#]
                for _ in 0..<Int.random(in: 0..<6, using: &generator) {
                    members.append("\"\(fields.randomElement(using: &generator) ?? "x")\":\(values.randomElement(using: &generator) ?? "0")")
                }
                line = "{" + members.joined(separator: ",") + "}"
            }
            try attacker.line.send(line)
            sent += 1
        }
        try attacker.line.send(#"{"type":"ping","id":"last"}"#)
        let pong = try attacker.next(timeout: .seconds(20)) { $0.id == .string("last") }
        #expect(pong.type == "pong" && sent == 400)
        #expect(try bystander.request(.ping).type == "pong")
        #expect(try host.device("late").welcome != nil)
    }
}
