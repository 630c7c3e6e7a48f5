import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckTransport

/// A connection's end: its input ending, its close, the `leave` event's word.
@Suite("HostState rules: the end of a connection")
struct HostRulesCloseTests {
    typealias R = Rules

    @Test func theEndOfInputClosesBehindTheRepliesOwed() throws {
        var host = try R.host()
        #expect(host.handle(.inputEnded(R.phone)) == [.commit(Commit(Outcome([.closeAfterFlush(R.phone)])))])
    }

    @Test func aDeviceThatLeavesLiftsItsHoldsThenLeaves() throws {
        var host = try R.host()
        #expect(host.handle(.closed(R.phone, reason: .peerClosed, closeReason: nil, now: 50)) == [
            .commit(Commit(Outcome([.liftHolds(of: R.phone)]))),
            .log(.info, "kim (phone, 10.0.0.2:5000) left: \(CloseReason.peerClosed)"),
            .perform(.event(.leave(client: R.kim, reason: "closed"))),
        ])
        #expect(host.sessions[R.phone] == nil)
    }

    static let words: [(CloseReason, String?, String)] = [
        (.peerClosed, nil, "closed"), (.closedByHost, "unpaired", "unpaired"), (.lineTooLong(limit: 64), nil, "tooLarge"),
        (.outputLimit(limit: 1), nil, "slow"), (.notEstablished(timeout: .seconds(1)), nil, "handshake"),
        (.socketError(errno: 104), nil, "error"), (.loopStopped, nil, "shutdown"), (.protocolViolation("x"), nil, "protocol"),
    ]

    @Test(arguments: words)
    func theLeaveEventSaysWhy(_ reason: CloseReason, _ closeReason: String?, _ word: String) throws {
        var host = try R.host()
        let actions = host.handle(.closed(R.tablet, reason: reason, closeReason: closeReason, now: 0))
        #expect(actions.last == .perform(.event(.leave(client: R.lee, reason: word))))
    }

    @Test func aConnectionThatNeverSaidHelloLeavesSilently() throws {
        var host = try R.host()
        _ = host.handle(.opened(ConnectionID(rawValue: 50), peer: "10.0.0.8:1", host: "10.0.0.8"))
        #expect(host.handle(.closed(ConnectionID(rawValue: 50), reason: .notEstablished(timeout: .seconds(10)), closeReason: nil,
                                    now: 0)).isEmpty)
        #expect(host.sessions[ConnectionID(rawValue: 50)] == nil)
    }

    @Test func whileStoppingNoHoldIsLifted() throws {
        var host = try R.host()
        _ = host.shutdown.begin()
        let actions = host.handle(.closed(R.phone, reason: .loopStopped, closeReason: nil, now: 0))
        #expect(actions.count == 2 && actions.last == .perform(.event(.leave(client: R.kim, reason: "shutdown"))))
    }

    @Test func aPairedDeviceIsSeenWhenItLeaves() throws {
        var host = try R.host()
        let (token, _) = host.auth.pair("pad", now: 1)
        R.join(&host, ConnectionID(rawValue: 51), R.lee, token: token, rules: R.remote)
        _ = host.handle(.closed(ConnectionID(rawValue: 51), reason: .peerClosed, closeReason: nil, now: 900))
        let pad = try #require(host.pairedDevices().first { $0.name == "pad" })
        #expect(!pad.connected && pad.lastSeen == UTCTime.format(900))
    }
}

/// Held plugin buttons (docs/plugins.md, "Presses"): tracked in pipeline order, lifted when their device leaves or the host locks.
@Suite("HostState rules: held buttons")
struct HostRulesHoldTests {
    typealias R = Rules

    static func down(_ index: Int, by who: ClientInfo = Rules.kim) -> ActionRequest {
        ActionRequest(page: 0, index: index, button: Rules.talk, phase: .down, by: who)
    }

    static func up(_ index: Int, by who: ClientInfo = Rules.kim) -> ActionRequest {
        ActionRequest(page: 0, index: index, button: Rules.talk, phase: .up, by: who)
    }

    @Test func aDeviceThatLeavesHoldingAButtonSendsItsUp() throws {
        var host = try R.host()
        #expect(host.handle(.holds(.track(Self.down(4), of: R.phone))).isEmpty)
        #expect(host.handle(.holds(.left(R.phone))) == [
            .log(.info, "'Talk' lifted at 0/4: kim left while holding it down"), .perform(.pressPlugin(Self.up(4))),
        ])
        #expect(host.handle(.holds(.left(R.phone))).isEmpty)  // owed once
    }

    @Test func anUpReleasesTheHold() throws {
        var host = try R.host()
        _ = host.handle(.holds(.track(Self.down(4), of: R.phone)))
        _ = host.handle(.holds(.track(Self.up(4), of: R.phone)))
        #expect(host.handle(.holds(.left(R.phone))).isEmpty)
    }

    @Test func lockingLiftsEveryonesHolds() throws {
        var host = try R.host()
        _ = host.handle(.holds(.track(Self.down(4), of: R.phone)))
        _ = host.handle(.holds(.track(Self.down(4, by: R.lee), of: R.tablet)))
        let actions = host.handle(.holds(.liftAll))
        #expect(actions.count == 4)
        #expect(actions.contains(.log(.info, "'Talk' lifted at 0/4: the host locked while lee held it down")))
        #expect(actions.contains(.perform(.pressPlugin(Self.up(4, by: R.kim)))))
    }

    @Test func whileStoppingNothingIsLifted() throws {
        var host = try R.host()
        _ = host.handle(.holds(.track(Self.down(4), of: R.phone)))
        _ = host.shutdown.begin()
        #expect(host.handle(.holds(.left(R.phone))).isEmpty)
    }
}
