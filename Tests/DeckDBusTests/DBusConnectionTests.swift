import DeckDBus
import Glibc
import Testing

/// Calls, errors, timeouts, matches and peers that leave, on a real dbus-daemon with a real peer.
@Suite struct DBusConnectionTests {
    @Test func aConnectionHasAUniqueNameAndAMissingBusIsASentence() throws {
        let bus = try TestBus()
        #expect(try bus.connect().uniqueName().hasPrefix(":1."))
        let missing = "unix:path=\(bus.folder.path)/nobody-listens"
        #expect { try DBusConnection(.address(missing)) } throws: { error in
            "\(error)".hasPrefix("connecting to the bus at \(missing) failed: ")
        }
    }

    @Test func aFailedCallArrivesAsItsErrorAndAWaitedOneThrowsIt() throws {
        let bus = try TestBus()
        try bus.startPeer()
        let connection = try bus.connect()
        let answer = try connection.answer(to: connection.callPeer("Fail"))
        guard case .error(_, let name, let message) = answer.kind else {
            Issue.record("Fail was answered with \(answer)")
            return
        }
        #expect(name == "org.deck.TestPeer.Error.Refused")
        #expect(message == "the peer refuses Fail, as asked")
        #expect {
            try connection.callAndWait(destination: TestBus.peerName, path: TestBus.peerPath, interface: TestBus.peerName,
                                       member: "Fail", timeoutMicroseconds: 5_000_000)
        } throws: { error in
            error as? DBusError == .refused(destination: TestBus.peerName, member: "Fail", name: "org.deck.TestPeer.Error.Refused",
                                            message: "the peer refuses Fail, as asked")
        }
        let echoed = try connection.callAndWait(destination: TestBus.peerName, path: TestBus.peerPath,
                                                interface: TestBus.peerName, member: "Echo", arguments: [.int64(42)],
                                                timeoutMicroseconds: 5_000_000)
        #expect(echoed == [.int64(42)])
    }

    @Test func aWaitedCallToANameNobodyOwnsSaysSo() throws {
        let bus = try TestBus()
        let connection = try bus.connect()
        #expect {
            try connection.callAndWait(destination: "org.deck.Nobody", path: "/", interface: "org.deck.Nobody",
                                       member: "Hello", timeoutMicroseconds: 5_000_000)
        } throws: { error in
            error as? DBusError == .noOwner(destination: "org.deck.Nobody")
        }
    }

    @Test func aCallNotAnsweredInTimeEndsInNoReply() throws {
        let bus = try TestBus()
        try bus.startPeer()
        let connection = try bus.connect()
        let cookie = try connection.callPeer("Stall", timeoutMicroseconds: 200_000)
        #expect(try connection.pollState().timeoutMilliseconds >= 0, "sd-bus's deadline for the call is in the poll state")
        let answer = try connection.answer(to: cookie)
        guard case .error(_, let name, _) = answer.kind else {
            Issue.record("Stall was answered with \(answer)")
            return
        }
        #expect(name == "org.freedesktop.DBus.Error.NoReply")
        #expect {
            try connection.callAndWait(destination: TestBus.peerName, path: TestBus.peerPath, interface: TestBus.peerName,
                                       member: "Stall", timeoutMicroseconds: 200_000)
        } throws: { error in
            error as? DBusError == .timedOut(destination: TestBus.peerName, member: "Stall")
        }
    }

    @Test func aMatchLetsThroughItsSignalsOnly() throws {
        let bus = try TestBus()
        try bus.startPeer()
        let connection = try bus.connect()
        try connection.addMatch("type='signal',interface='\(TestBus.peerName)',member='Ping'")
        let owner = try connection.callAndWait(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                               interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                               arguments: [.string(TestBus.peerName)], timeoutMicroseconds: 5_000_000)
        try connection.callPeer("Emit", [.string("Pong"), .string("not matched")])
        try connection.callPeer("Emit", [.string("Ping"), .string("matched"), .uint32(7)])
        let seen = try connection.messages { $0.contains { $0.member == "Ping" } }
        let signals = seen.filter { $0.kind == .signal }
        #expect(signals == [DBusMessage(kind: .signal, sender: owner.first?.string ?? "?", path: TestBus.peerPath,
                                        interface: TestBus.peerName, member: "Ping", body: [.string("matched"), .uint32(7)])],
                "the Pong signal, sent first, is not let through")
    }

    @Test func aPeerThatLeavesFailsItsPendingCallAndItsNameOwnerChanges() throws {
        let bus = try TestBus()
        try bus.startPeer()
        let connection = try bus.connect()
        try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                + "member='NameOwnerChanged',arg0='\(TestBus.peerName)'")
        let pending = try connection.callPeer("Stall")
        // Echo answered: the peer has the Stall call, and the match is in place (the bus answers in order).
        _ = try connection.answer(to: connection.callPeer("Echo"))
        bus.stopPeer()
        let seen = try connection.messages { seen in
            seen.contains { $0.kind == .signal } && seen.contains {
                if case .error(pending, _, _) = $0.kind { return true }
                return false
            }
        }
        let change = try #require(seen.first { $0.kind == .signal })
        #expect(change.sender == "org.freedesktop.DBus" && change.member == "NameOwnerChanged")
        #expect(change.body.count == 3 && change.body[0] == .string(TestBus.peerName) && change.body[2] == .string(""))
        #expect(seen.contains { if case .error(pending, "org.freedesktop.DBus.Error.NoReply", _) = $0.kind { true } else { false } })
    }

    @Test func aBusThatStopsBreaksTheConnectionAndThenItIsClosed() throws {
        let bus = try TestBus()
        let connection = try bus.connect()
        bus.stopDaemon()
        #expect(throws: DBusError.self) { try connection.messages { _ in false } }
        connection.close()
        #expect(throws: DBusError.closed) { try connection.process() }
        #expect(throws: DBusError.closed) { try connection.callPeer("Echo") }
    }
}
