import DeckModel
import DeckProfiles
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

@Suite("Edits end to end: replies, broadcasts, stale checks, concurrency")
struct EditTests {
    @Test func anAcceptedMoveReachesBothDevices() throws {
        let host = try startedHost()
        let a = try host.device("a")
        let b = try host.device("b")
        let terminal = try #require(a.welcomeLayout.button(page: 0, index: 1))
        let start = try #require(a.welcome?.revision)
        let revision = try a.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 1, button: terminal))
        #expect(revision == start + 1)
        for client in [a, b] {
            let (seen, layout) = try client.nextLayout()
            #expect(seen == start + 1)
            #expect(layout.button(page: 1, index: 1) == terminal)
            #expect(layout.button(page: 0, index: 1) == nil)
        }
    }

    /// §5: the reply, then the layout — to the sender too when it is a
    /// control client that has not subscribed (deckctl editing). Other
    /// unsubscribed control clients get no broadcasts (§7).
    @Test func aControlClientThatEditsGetsTheLayoutAfterEveryReplyWithoutSubscribing() throws {
        let host = try startedHost()
        let editor = try host.controlClient("editor")
        let bystander = try host.controlClient("bystander")
        let device = try host.device()
        let terminal = try #require(editor.welcomeLayout.button(page: 0, index: 1))
        let wrong = DeckButton(name: "Not there", action: .run(command: "true"))
        let start = try #require(editor.welcome?.revision)
        let requests: [(ClientRequest, ErrorCode?)] = [
            (.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 2, button: wrong), .stale),
            (.clearButton(page: 0, index: 1, expecting: wrong), .stale),
            (.setButton(page: 40, index: 0, button: wrong), .outOfRange),
            (.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 1, button: terminal), nil),
            (.moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 5, button: terminal), nil),
        ]
        var revision = start
        for (request, code) in requests {
            try editor.send(request)
            let reply = try editor.line.readLine()
            switch (try HostMessage.decode(reply), code) {
            case (.error(_, let got, _, _), let code?): #expect(got == code)
            case (.ok(_, let got?), nil): revision = got
            case (let other, _): Issue.record("\(request) answered \(other)")
            }
            // The layout comes right after the reply, on the same connection.
            guard case let .layout(_, seen, layout, _, _) = try HostMessage.decode(try editor.line.readLine()) else {
                Issue.record("no layout after the reply to \(request)"); return
            }
            #expect(seen == revision && layout.isNormal)
            #expect(try device.nextLayout().revision == revision)
        }
        #expect(revision == start + 1)
        // A button the decoder refuses (`invalid`) is an edit refused too.
        try editor.line.send(#"{"type":"setButton","id":"x","page":0,"index":3,"button":{"name":"","action":{"run":"true"}}}"#)
        guard case .error(.string("x"), .invalid, _, _) = try editor.next() else { Issue.record("not invalid"); return }
        #expect(try editor.next().type == "layout")
        // The bystander was sent nothing: its next line is its own pong.
        #expect(try bystander.request(.ping).type == "pong")
        #expect(bystander.backlog.isEmpty)
    }

    /// PROTOCOL.md §5 for a client that sends several edits in one write,
    /// accepted and refused: each reply, then a layout holding its edit.
    @Test func editsSentInOneWriteAreEachAnsweredThenFollowedByALayout() throws {
        let host = try startedHost()
        let a = try host.device()
        let sets = (0..<4).map { #"{"type":"setButton","id":\#($0),"page":0,"index":\#(6 + $0),"button":{"name":"P\#($0)","action":{"run":"true"}}}"# }
        let stale = (4..<7).map { #"{"type":"clearButton","id":\#($0),"page":0,"index":1,"expecting":{"name":"Nope","action":{"run":"true"}}}"# }
        try a.line.write(Array((sets + stale).joined(separator: "\n").utf8) + [0x0A])
        var previous = a.welcome?.revision ?? 0
        for id in 0..<7 {
            let reply = try a.next()
            #expect(reply.id == .int(id), "\(reply)")
            let (revision, layout) = try a.nextLayout()
            #expect(a.backlog.isEmpty, "a layout came right after reply \(id)")
            #expect(revision >= previous)
            if id < 4 { #expect(layout.button(page: 0, index: 6 + id)?.name == "P\(id)") }
            previous = revision
        }
    }

    @Test func anInvalidButtonIsRefusedAndTheLayoutFollows() throws {
        let host = try startedHost()
        let a = try host.device()
        try a.line.send(#"{"type":"setButton","id":"x","page":0,"index":3,"button":{"name":" ","action":{"run":"true"}}}"#)
        let reply = try a.next()
        guard case .error(.string("x"), .invalid, _, _) = reply else { Issue.record("\(reply)"); return }
        #expect(try a.next().type == "layout")
        // Garbage keeps the connection open.
        try a.line.send("{nope")
        guard case .error(nil, .malformed, _, _) = try a.next() else { Issue.record("not malformed"); return }
        #expect(try a.request(.ping).type == "pong")
    }

    /// A profile file close to the bound loads, and edits that do not grow
    /// it past the bound still pass (one past it is refused at load:
    /// LayoutBoundTests).
    @Test func aLargeProfileFromAFileStillTakesEditsThatDoNotGrowIt() throws {
        let big = String(repeating: "b", count: 2_096_600)  // 30 bytes of JSON under the bound
        let host = try startedHost(["default.yaml": deskYAML + "\n      5: {name: \(big), action: {run: \"true\"}}\n"])
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        #expect(device.welcomeLayout.button(page: 1, index: 5)?.name.count == big.count)
        try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 7, button: terminal))
        _ = try device.nextLayout()
        try device.expectOK(.clearButton(page: 0, index: 7, expecting: terminal))
        _ = try device.nextLayout()
        try device.expectError(.setButton(page: 0, index: 8, button: DeckButton(name: String(repeating: "m", count: 200), action: .run(command: "true"))), .invalid)
    }

    /// Four devices move buttons at random at once; every device ends on the
    /// host's layout, and no button is lost or doubled.
    @Test func fourDevicesMovingAtOnceEndOnTheHostsLayout() async throws {
        let host = try startedHost()
        let initial = try host.device("observer").welcomeLayout
        let names = initial.placedButtons.map(\.button.name).sorted()
        let clients = try (1...4).map { try host.device("d\($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, client) in clients.enumerated() {
                group.addTask {
                    var generator = SeededGenerator(seed: UInt64(number + 1))
                    var view = client.welcomeLayout
                    var last = client.welcome?.revision ?? 0
                    for _ in 0..<40 {
                        guard let pick = view.placedButtons.randomElement(using: &generator) else { break }
                        let toPage = Int.random(in: 0..<view.pages.count, using: &generator)
                        let toIndex = Int.random(in: 0..<view.slotsPerPage, using: &generator)
                        let reply = try client.request(.moveButton(fromPage: pick.page, fromIndex: pick.index, toPage: toPage,
                                                                   toIndex: toIndex, button: pick.button))
                        guard reply.type == "ok" || reply.type == "error" else { throw HarnessError("\(reply)") }
                        // The §5 layout follows every reply; keep the newest seen.
                        let (revision, layout) = try client.nextLayout()
                        if revision >= last { (last, view) = (revision, layout) }
                    }
                }
            }
            try await group.waitForAll()
        }
        // Nobody edits any more: every device catches up with the host's revision.
        let control = try host.controlClient()
        let status = try control.status()
        let export = try control.request(.export(profile: nil))
        guard case .export(_, "default", let yaml) = export else { Issue.record("\(export)"); return }
        var finals: [(Int, DeckLayout)] = []
        for client in clients {
            var last = (0, DeckLayout.empty())
            while last.0 < status.revision {
                let (revision, layout) = try client.nextLayout(timeout: .seconds(10))
                if revision >= last.0 { last = (revision, layout) }
            }
            finals.append(last)
        }
        let observer = try host.device("late")
        for (revision, layout) in finals {
            #expect(revision == status.revision)
            #expect(layout == observer.welcomeLayout)
        }
        #expect(try DeckProfile.parse(yaml, file: "default.yaml").layout == observer.welcomeLayout)
        #expect(observer.welcomeLayout.placedButtons.map(\.button.name).sorted() == names)
        #expect(observer.welcomeLayout.isNormal)
    }

    /// A device that stops reading never delays the others, and costs at
    /// most the layout being written and the newest one: each newer layout
    /// replaces the one not yet written to it (PROTOCOL.md §5, `sendLatest`),
    /// so its output never grows to the 8 MiB that would close it.
    @Test func aDeviceThatStopsReadingNeverDelaysTheOthers() throws {
        // 300 full pages: each layout line is about 200 KB, so 40 edits would
        // queue 8 MB for the stuck device if every layout waited for it.
        var yaml = "pages:\n"
        for page in 0..<300 {
            yaml += "  - buttons:\n"
            for index in 0..<12 { yaml += "      - {name: \"Button \(page)-\(index)\", action: {run: \"true\"}}\n" }
        }
        let host = try HostProcess(files: ["default.yaml": yaml])
        try host.start()
        let stuck = try host.device("stuck")
        _ = stuck  // never reads again
        let a = try host.device("a")
        let b = try host.device("b")
        let control = try host.controlClient()
        // The same button goes back and forth; a and b read every line, but
        // only the reply is decoded (decoding 200 KB layouts is not the point).
        let button = try #require(a.welcomeLayout.button(page: 0, index: 0))
        var from = (0, 0)
        for step in 0..<60 {
            let to = step % 2 == 0 ? (300, 0) : (0, 0)
            try a.send(.moveButton(fromPage: from.0, fromIndex: from.1, toPage: to.0, toIndex: to.1, button: button))
            let reply = try HostMessage.decode(try a.line.readLine())
            guard case .ok = reply else { Issue.record("\(reply)"); return }
            let layoutToA = try a.line.readLine()
            let layoutToB = try b.line.readLine()
            #expect(layoutToA == layoutToB && layoutToA.starts(with: Data(#"{"type":"layout""#.utf8)))
            from = to
        }
        #expect(try control.status().clients.contains { $0.name == "stuck" }, "12 MB of layouts did not pile up for it")
        #expect(try b.request(.ping).type == "pong")
    }
}
