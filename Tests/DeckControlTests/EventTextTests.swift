@testable import DeckControl
import DeckModel
import DeckProtocol
import Testing

@Suite("watch: one line per event")
struct EventTextTests {
    static let phone = ClientInfo(name: "Kim's iPhone", kind: "phone", address: "127.0.0.1:53422", protocolLevel: 7)
    static let control = ClientInfo(name: "deckctl", kind: "control", address: "control", protocolLevel: 7)

    /// The lines for a message as the host would send it (encoded, then read back).
    static func lines(_ message: HostMessage, printer: inout EventText) throws -> [String] {
        let bytes = message.line()
        let text = String(decoding: bytes.dropLast(), as: UTF8.self)
        return printer.lines(for: HostLine(text: text, message: try HostMessage.decode(bytes)))
    }

    @Test(arguments: [
        (DeckEvent.set(page: 0, index: 3, button: "Mail", replaced: "Old", revision: 15, by: phone),
         "set 'Mail' at 0/3 (replacing 'Old') by Kim's iPhone, revision 15"),
        (.set(page: 0, index: 3, button: "Mail", replaced: nil, revision: 15, by: nil), "set 'Mail' at 0/3, revision 15"),
        (.clear(page: 0, index: 3, button: "Mail", revision: 16, by: control), "cleared 'Mail' at 0/3 by deckctl, revision 16"),
        (.clear(page: 0, index: 3, button: nil, revision: 16, by: control), "cleared 0/3 (it was empty) by deckctl, revision 16"),
        (.move(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 0, button: "Files", swapped: nil, revision: 17, by: phone),
         "moved 'Files' 0/1 -> 1/0 by Kim's iPhone, revision 17"),
        (.move(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 0, button: "Files", swapped: "Mail", revision: 17, by: phone),
         "moved 'Files' 0/1 -> 1/0 (swapped with 'Mail') by Kim's iPhone, revision 17"),
        (.refused(request: "moveButton", code: .stale, message: "slot 0/1 no longer holds 'Terminal'", by: phone),
         "refused moveButton from Kim's iPhone: stale: slot 0/1 no longer holds 'Terminal'"),
        (.press(page: 0, index: 2, button: "Build", phase: .tap, by: phone), "pressed 'Build' at 0/2 by Kim's iPhone"),
        (.press(page: 1, index: 3, button: "Talk", phase: .down, by: phone), "pressed 'Talk' at 1/3 (down) by Kim's iPhone"),
        (.action(page: 0, index: 2, button: "Build", action: "run", outcome: .exited(status: 2), by: phone),
         "'Build' at 0/2 (run, pressed by Kim's iPhone): failed with exit status 2"),
        (.action(page: 0, index: 2, button: "Build", action: "run", outcome: .exited(status: 0), by: nil),
         "'Build' at 0/2 (run): finished (exit status 0)"),
        (.action(page: 0, index: 2, button: "B", action: "run", outcome: .signalled(signal: 9), by: nil), "'B' at 0/2 (run): was ended by signal 9"),
        (.action(page: 0, index: 2, button: "B", action: "run", outcome: .timedOut(seconds: 600), by: nil),
         "'B' at 0/2 (run): was stopped after its timeout of 600 s"),
        (.action(page: 0, index: 2, button: "B", action: "run", outcome: .timedOut(seconds: 2.5), by: nil),
         "'B' at 0/2 (run): was stopped after its timeout of 2.5 s"),
        (.action(page: 0, index: 0, button: "F", action: "open", outcome: .openerMissing, by: nil),
         "'F' at 0/0 (open): could not open: no opener (xdg-open) is installed"),
        (.action(page: 0, index: 0, button: "C", action: "plugin", outcome: .delivered, by: nil), "'C' at 0/0 (plugin): delivered to its plugin"),
        // `delivered` ends page and profile actions too: no plugin is involved there.
        (.action(page: 0, index: 11, button: "Next", action: "page", outcome: .delivered, by: nil),
         "'Next' at 0/11 (page): the page was sent to the device that pressed it"),
        (.action(page: 0, index: 10, button: "Stream", action: "profile", outcome: .delivered, by: nil), "'Stream' at 0/10 (profile): done"),
        (.action(page: 0, index: 0, button: "C", action: "plugin", outcome: .pluginUnavailable(plugin: "counter"), by: nil),
         "'C' at 0/0 (plugin): plugin 'counter' is not available"),
        (.action(page: 0, index: 0, button: "R", action: "run", outcome: .failed(reason: "no such folder ~/x"), by: nil),
         "'R' at 0/0 (run): could not run: no such folder ~/x"),
        (.lock(locked: true, source: .manual, by: control), "locked by deckctl"),
        (.lock(locked: false, source: .manual, by: nil), "unlocked (manual lock)"),
        (.lock(locked: true, source: .probe, by: nil), "locked by the lock probe (the desktop session locked)"),
        (.join(client: phone), "Kim's iPhone joined (phone, 127.0.0.1:53422, protocol 7)"),
        (.leave(client: phone, reason: "closed"), "Kim's iPhone left (it closed the connection)"),
        (.leave(client: phone, reason: "unpaired"), "Kim's iPhone left (its device was unpaired)"),
        (.leave(client: phone, reason: "vanished"), "Kim's iPhone left (vanished)"),
        (.reload(profile: "default", revision: 18, problems: [], by: nil), "reloaded 'default' from its file, revision 18"),
        (.profile(profile: "streaming", revision: 19, by: control), "switched to profile 'streaming' by deckctl, revision 19"),
        (.restore(profile: "default", generation: 41, revision: 20, by: control), "restored snapshot 41 of 'default' by deckctl, revision 20"),
        (.plugin(PluginStatus(id: "counter", state: "failed", message: "exited with status 1")), "plugin counter failed: exited with status 1"),
        (.plugin(PluginStatus(id: "counter", state: "running")), "plugin counter is running"),
        (.plugin(PluginStatus(id: "counter", state: "stopped")), "plugin counter stopped"),
        (.plugin(PluginStatus(id: "counter", state: "restarting", message: "it exited")), "plugin counter is restarting: it exited"),
    ] as [(DeckEvent, String)])
    func eventLines(_ event: DeckEvent, _ expected: String) throws {
        var printer = EventText(revision: 10)
        #expect(try Self.lines(.event(event), printer: &printer) == [expected])
    }

    @Test func controlConnectionsComingAndGoingOnlyWhenAsked() throws {
        var quiet = EventText(revision: 1)
        #expect(try Self.lines(.event(.join(client: Self.control)), printer: &quiet) == [])
        #expect(try Self.lines(.event(.leave(client: Self.control, reason: "closed")), printer: &quiet) == [])
        #expect(try Self.lines(.event(.join(client: Self.phone)), printer: &quiet).count == 1)
        var all = EventText(revision: 1, showsControlClients: true)
        #expect(try Self.lines(.event(.join(client: Self.control)), printer: &all) == ["deckctl joined (control, control, protocol 7)"])
    }

    @Test func aFailedReloadListsItsProblems() throws {
        var printer = EventText(revision: 10)
        let problems = [Problem(file: "default.yaml", line: 3, column: 1, message: "mapping values are not allowed here (YAML syntax)")]
        #expect(try Self.lines(.event(.reload(profile: "default", revision: nil, problems: problems, by: nil)), printer: &printer) == [
            "reload of 'default' found 1 problem; the live layout stays as it was:",
            "  default.yaml:3:1: mapping values are not allowed here (YAML syntax)",
        ])
    }

    @Test func layoutsAreShownOnlyForRevisionsNoEventReported() throws {
        var printer = EventText(revision: 10)
        let layout = try DeckLayout(slotsPerPage: 12, pages: [DeckPage(buttons: [DeckButton(name: "A", action: .open("x"))])])
        let layoutLine = { (revision: Int) in "layout of 'default' is now revision \(revision) (2 pages, 1 button)" }
        // The layout after a refused edit: nothing new.
        #expect(try Self.lines(.layout(profile: "default", revision: 10, layout: layout), printer: &printer) == [])
        // The host sends an edit's layout, then its event: the event alone is shown.
        #expect(try Self.lines(.layout(profile: "default", revision: 11, layout: layout), printer: &printer) == [])
        let move = DeckEvent.move(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, button: "A", swapped: nil, revision: 11, by: nil)
        #expect(try Self.lines(.event(move), printer: &printer) == ["moved 'A' 0/0 -> 0/1, revision 11"])
        #expect(printer.pendingLayout == nil && printer.revision == 11)
        // A layout no event follows is shown when the watcher flushes it.
        #expect(try Self.lines(.layout(profile: "default", revision: 12, layout: layout), printer: &printer) == [])
        #expect(printer.flush() == [layoutLine(12)])
        #expect(printer.flush() == [])
        // An unrelated event, or the next layout, lets the held one out first.
        _ = try Self.lines(.layout(profile: "default", revision: 13, layout: layout), printer: &printer)
        #expect(try Self.lines(.event(.join(client: Self.phone)), printer: &printer)
                == [layoutLine(13), "Kim's iPhone joined (phone, 127.0.0.1:53422, protocol 7)"])
        _ = try Self.lines(.layout(profile: "default", revision: 14, layout: layout), printer: &printer)
        #expect(try Self.lines(.layout(profile: "default", revision: 15, layout: layout), printer: &printer) == [layoutLine(14)])
        #expect(printer.flush() == [layoutLine(15)])
    }

    /// `deckctl reload` with nothing new is a `reload` event at the current
    /// revision, without a layout: it must not read as if the file had
    /// replaced the live layout (and the edits made from devices).
    @Test func aReloadThatChangedNothingSaysSo() throws {
        var printer = EventText(revision: 10)
        let layout = try DeckLayout(slotsPerPage: 12, pages: [DeckPage(buttons: [DeckButton(name: "A", action: .open("x"))])])
        let unchanged = "reloaded the profiles by deckctl; 'default' did not change, its live layout stays, revision 10"
        #expect(try Self.lines(.event(.reload(profile: "default", revision: 10, problems: [], by: Self.control)), printer: &printer)
                == [unchanged])
        // A file that replaced the live layout: its layout, then its event.
        _ = try Self.lines(.layout(profile: "default", revision: 11, layout: layout), printer: &printer)
        #expect(try Self.lines(.event(.reload(profile: "default", revision: 11, problems: [], by: nil)), printer: &printer)
                == ["reloaded 'default' from its file, revision 11"])
        // Reloading again finds that revision, already reported.
        #expect(try Self.lines(.event(.reload(profile: "default", revision: 11, problems: [], by: Self.control)), printer: &printer)
                == ["reloaded the profiles by deckctl; 'default' did not change, its live layout stays, revision 11"])
        // The same after an edit's layout and event.
        _ = try Self.lines(.layout(profile: "default", revision: 12, layout: layout), printer: &printer)
        _ = try Self.lines(.event(.clear(page: 0, index: 0, button: "A", revision: 12, by: nil)), printer: &printer)
        #expect(try Self.lines(.event(.reload(profile: "default", revision: 12, problems: [], by: nil)), printer: &printer)
                == ["reloaded the profiles; 'default' did not change, its live layout stays, revision 12"])
        // A layout already flushed before its reload event still belongs to it.
        _ = try Self.lines(.layout(profile: "default", revision: 13, layout: layout), printer: &printer)
        #expect(printer.flush().count == 1)
        #expect(try Self.lines(.event(.reload(profile: "default", revision: 13, problems: [], by: nil)), printer: &printer)
                == ["reloaded 'default' from its file, revision 13"])
    }

    @Test func otherBroadcasts() throws {
        var printer = EventText(revision: 1)
        #expect(try Self.lines(.buttonState(page: 1, index: 3, title: "Count: 3"), printer: &printer) == ["button 1/3 shows 'Count: 3'"])
        #expect(try Self.lines(.buttonState(page: 1, index: 3, title: nil), printer: &printer) == ["button 1/3 shows its name again"])
        #expect(try Self.lines(.lock(locked: true), printer: &printer) == [])
        #expect(printer.lines(for: HostLine(text: #"{"type":"event","event":"teleport","x":1}"#,
                                            message: .event(.unknown(kind: "teleport"))))
                == [#"event 'teleport': {"type":"event","event":"teleport","x":1}"#])
        #expect(printer.lines(for: HostLine(text: #"{"type":"hologram"}"#, message: nil)) == [#"message {"type":"hologram"}"#])
    }
}
