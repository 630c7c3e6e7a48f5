import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// Every deckctl command against a real deckd started by the test, run as a
/// real process: output, `--json`, and exit statuses.
@Suite("deckctl against a real host")
struct DeckctlHostTests {
    @Test func statusAndDevices() throws {
        let deck = try DeckctlAgainstHost()
        let phone = try deck.host.device("Kim's iPhone")
        let status = try deck.run("status")
        #expect(status.status == 0 && status.err.isEmpty)
        #expect(status.outLines.contains { $0.hasPrefix("profile:   default, revision ") })
        #expect(status.outLines.contains("lock:      unlocked"))
        #expect(status.outLines.contains("profiles:  default, streaming"))
        #expect(status.outLines.contains { $0.hasPrefix("  Kim's iPhone  phone    127.0.0.1:") })
        let json = try deck.json("status")
        #expect(json.status == 0 && json.objects.count == 1 && json.objects[0]["type"] as? String == "status")
        let devices = try deck.run("devices")
        #expect(devices.status == 0)
        #expect(devices.outLines.first == "no devices are paired (deckctl pair NAME pairs one)")
        #expect(devices.outLines.contains { $0.hasPrefix("Kim's iPhone  phone  127.0.0.1:") })
        #expect(devices.outLines.last == "1 control connection (deckctl and scripts, this one included)")
        let replies = try deck.json("devices").objects
        #expect(replies.map { $0["type"] as? String } == ["devices", "status"])
        _ = phone
    }

    @Test func showDrawsTheLiveLayout() throws {
        let deck = try DeckctlAgainstHost()
        let show = try deck.run("show")
        #expect(show.status == 0 && show.err.isEmpty)
        let revision = try #require(deck.host.controlClient().welcome?.revision)
        let lines = show.outLines
        #expect(lines[0] == "profile default, revision \(revision), unlocked")
        #expect(lines.contains("page 0: Desk"))
        #expect(lines.contains("│ Files                  │ ⌨️ Terminal            │ Build                  │"))
        #expect(lines.contains("│                        │                        │ ➡️ 다음 페이지         │"))
        #expect(lines.last == "page 2 is the empty page at the end (move a button there to add a page)")
        let tablet = try deck.run("show", "1", "--columns", "4")
        #expect(tablet.outLines[2] == "page 1")
        #expect(tablet.outLines[3] == "┌─ 0 ──────────────┬─ 1 ──────────────┬─ 2 ──────────────┬─ 3 ──────────────┐")
        let json = try deck.json("show")
        #expect(json.status == 0 && json.objects.first?["type"] as? String == "welcome")
        let missing = try deck.run("show", "7")
        #expect(missing.status == 1 && missing.out.isEmpty)
        #expect(missing.errLines == ["outOfRange: there is no page 7; the layout has pages 0 to 2, with slots 0 to 11"])
    }

    @Test func setClearMoveAndEveryDeviceSeesIt() throws {
        let deck = try DeckctlAgainstHost()
        let phone = try deck.host.device("phone")
        let set = try deck.run("set", "0", "3", "--name", "Mail", "--icon", "📧", "--open", "mailto:me@example.com")
        #expect(set.status == 0)
        #expect(set.outLines.count == 1 && set.outLines[0].hasPrefix("set 0/3 to 'Mail' (revision "))
        let afterSet = try phone.nextLayout()
        #expect(afterSet.layout.button(page: 0, index: 3) == DeckButton(name: "Mail", icon: "📧", action: .open("mailto:me@example.com")))

        let plugin = try deck.json("set", "1", "1", "--name", "Vol", "--plugin", "audio", "--command", "volume",
                                   "--setting", "step=5", "--setting", "mute=no")
        #expect(plugin.status == 0 && plugin.objects.first?["type"] as? String == "ok" && plugin.objects.first?["revision"] is Int)
        #expect(try phone.nextLayout().layout.button(page: 1, index: 1)?.action
                == .plugin(id: "audio", command: "volume", settings: ["step": .int(5), "mute": .bool(false)]))

        let move = try deck.run("move", "0", "1", "1", "0")
        #expect(move.status == 0)
        #expect(move.outLines.first?.hasPrefix("moved 'Terminal' 0/1 -> 1/0, swapping with 'Lock' (revision ") == true)
        let afterMove = try phone.nextLayout().layout
        #expect(afterMove.button(page: 1, index: 0)?.name == "Terminal" && afterMove.button(page: 0, index: 1)?.name == "Lock")

        let toTheEnd = try deck.run("move", "0", "0", "2", "0")
        #expect(toTheEnd.status == 0)
        #expect(try phone.nextLayout().layout.pages.count == 4)

        let empty = try deck.run("move", "0", "4", "0", "5")
        #expect(empty.status == 1 && empty.errLines == ["empty: slot 0/4 is empty, so there is nothing to move (see 'deckctl show')"])

        let named = try #require(try deck.host.device("peek").welcome?.layout.button(page: 0, index: 3)?.name)
        let clear = try deck.run("clear", "0", "3")
        #expect(clear.status == 0 && clear.outLines.first?.hasPrefix("cleared '\(named)' at 0/3 (revision ") == true, "\(clear.outLines)")
        #expect(try phone.nextLayout().layout.button(page: 0, index: 3) == nil)
        let again = try deck.run("clear", "0", "3")
        #expect(again.status == 0 && again.outLines == ["0/3 is already empty; nothing changed"])

        let outside = try deck.run("clear", "9", "0")
        #expect(outside.status == 1 && outside.errLines.first?.hasPrefix("outOfRange: ") == true)
        let badJSON = try deck.json("clear", "9", "0")
        #expect(badJSON.status == 1 && badJSON.objects.first?["code"] as? String == "outOfRange")
    }

    @Test func lockAndUnlock() throws {
        let deck = try DeckctlAgainstHost()
        let phone = try deck.host.device("phone")
        let lock = try deck.run("lock")
        #expect(lock.status == 0 && lock.outLines == ["locked: no device, and no deckctl, can edit or press until 'deckctl unlock'"])
        _ = try phone.next { if case .lock(true) = $0 { true } else { false } }
        guard case .error(_, .locked, _, _) = try phone.request(.press(page: 0, index: 1, button: nil, phase: .tap)) else {
            Issue.record("a press while locked was not refused")
            return
        }
        #expect(try deck.run("show").outLines.first?.hasSuffix(", LOCKED: edits and presses are refused") == true)
        let refused = try deck.run("set", "0", "3", "--name", "A", "--open", "x")
        #expect(refused.status == 1 && refused.out.isEmpty)
        #expect(refused.errLines.count == 1 && refused.errLines[0].hasPrefix("locked: the host is locked"))
        let unlock = try deck.run("unlock")
        #expect(unlock.status == 0 && unlock.outLines == ["unlocked: devices and deckctl can edit and press again"])
        #expect(try deck.run("set", "0", "3", "--name", "A", "--open", "x").status == 0)
        #expect(try deck.json("lock").objects.first?["type"] as? String == "ok")
    }

    @Test func pressRunsTheButton() throws {
        let deck = try DeckctlAgainstHost()
        let press = try deck.run("press", "0", "1")
        #expect(press.status == 0)
        #expect(press.outLines == ["pressed 'Terminal' at 0/1; 'deckctl watch' shows how its action ends"])
        #expect(try deck.run("press", "0", "1", "--down").outLines.first?.contains("(down)") == true)
        let empty = try deck.run("press", "0", "4")
        #expect(empty.status == 1 && empty.errLines.first?.hasPrefix("empty: ") == true)
    }

    /// Issue 17 §2: a broken plugin manifest found by `reload` is printed as
    /// FILE:LINE:COLUMN and the exit status is 1 (it used to be only in `status`).
    @Test func reloadPrintsPluginManifestProblemsAndExitsOne() throws {
        let deck = try DeckctlAgainstHost()
        let folder = deck.host.root.path + "/plugins/greeter"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("id: greeter\nexec: ./greet\n".utf8).write(to: URL(fileURLWithPath: folder + "/plugin.yaml"))
        let reload = try deck.run("reload")
        #expect(reload.status == 1)
        #expect(reload.errLines.first == "invalid: the reload went through, but found 1 problem; fix it and run deckctl reload again")
        #expect(reload.errLines.contains { $0.hasSuffix("greeter/plugin.yaml:2:7: exec must be a list such as [./greet], not a string")
            || ($0.contains("greeter/plugin.yaml:2:7: ") && $0.contains("exec")) }, "\(reload.errLines)")
        try FileManager.default.removeItem(atPath: folder)
        #expect(try deck.run("reload").status == 0)
    }

    @Test func profilesUseAndReload() throws {
        let deck = try DeckctlAgainstHost()
        let profiles = try deck.run("profiles")
        #expect(profiles.status == 0)
        #expect(profiles.outLines == ["* default    default.yaml    3 pages  6 buttons",
                                      "  streaming  streaming.yaml  2 pages   1 button"])
        #expect(try deck.run("profiles", "--names").outLines == ["default", "streaming"])
        #expect(try deck.json("profiles").objects.first?["active"] as? String == "default")
        let use = try deck.run("use", "streaming")
        #expect(use.status == 0 && use.outLines.first?.hasPrefix("the live layout is now profile 'streaming' (revision ") == true)
        #expect(try deck.run("show").outLines.first?.hasPrefix("profile streaming, revision ") == true)
        let unknown = try deck.run("use", "nope")
        #expect(unknown.status == 1 && unknown.errLines.first?.hasPrefix("notFound: ") == true)

        try deck.host.write("streaming.yaml", "pages:\n  - buttons:\n      0: {nmae: X, action: {run: x}}\n")
        let reload = try deck.run("reload")
        #expect(reload.status == 1)
        #expect(reload.errLines.first?.hasPrefix("invalid: ") == true)
        #expect(reload.errLines.contains { $0.hasPrefix("streaming.yaml:3:11: unknown key 'nmae'") })
        try deck.host.write("streaming.yaml", HostFiles.streaming)
        let fixed = try deck.run("reload")
        #expect(fixed.status == 0 && fixed.outLines.first?.hasPrefix("reloaded the profile files") == true)

        // Switching to a broken profile: its problems, as `check` prints them, and nothing changes.
        #expect(try deck.run("use", "default").status == 0)
        try deck.host.write("streaming.yaml", "pages:\n  - buttons:\n      0: {nmae: X, action: {run: x}}\n")
        // Not the live profile's file, so the host reloads; deckctl still names the problem and exits 1 (CLI.md).
        let other = try deck.run("reload")
        #expect(other.status == 1 && other.outLines.first?.hasPrefix("reloaded the profile files") == true)
        #expect(other.errLines.contains { $0.hasPrefix("streaming.yaml:3:11: unknown key 'nmae'") })
        let broken = try deck.run("use", "streaming")
        #expect(broken.status == 1 && broken.out.isEmpty)
        #expect(broken.errLines.first?.hasPrefix("invalid: streaming.yaml has a problem; ") == true)
        let check = try deck.run("check", "streaming.yaml", in: deck.host.layouts)
        #expect(check.status == 65 && Array(broken.errLines.dropFirst()) == check.outLines)
        #expect(try deck.run("show").outLines.first?.hasPrefix("profile default, revision ") == true)
    }

    @Test func snapshotsAndRestore() throws {
        let deck = try DeckctlAgainstHost()
        let before = try #require(deck.host.controlClient().welcome?.layout)
        #expect(try deck.run("set", "0", "3", "--name", "New", "--run", "true").status == 0)
        let snapshots = try deck.run("snapshots")
        #expect(snapshots.status == 0)
        #expect(snapshots.outLines.first == "snapshots of 'default', newest first:")
        #expect(snapshots.outLines.dropFirst().first?.hasPrefix("generation  revision  time") == true)
        let json = try deck.json("snapshots")
        let list = try #require(json.objects.first?["snapshots"] as? [[String: Any]])
        #expect(list.count >= 2 && list[0]["reason"] as? String == "setButton")
        let older = try #require(list[1]["generation"] as? Int)
        let restore = try deck.run("restore", String(older))
        #expect(restore.status == 0 && restore.outLines.first?.hasPrefix("restored snapshot \(older) as the live layout (revision ") == true)
        #expect(try deck.host.controlClient().welcome?.layout == before)
        let missing = try deck.run("restore", "99999")
        #expect(missing.status == 1 && missing.errLines.first?.hasPrefix("notFound: ") == true)
        #expect(try deck.run("snapshots", "--profile", "streaming").status == 0)
    }

    @Test func exportAtomicallyThenCheck() throws {
        let deck = try DeckctlAgainstHost()
        #expect(try deck.run("set", "1", "5", "--name", "스트리밍", "--profile", "streaming").status == 0)
        let folder = try TemporaryDirectory(prefix: "export")
        let file = folder.appending("default.yaml").path
        let export = try deck.run("export", "-o", file)
        #expect(export.status == 0 && export.outLines == ["exported profile 'default' to \(file)"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["default.yaml"])
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.contains("5: {name: 스트리밍, action: {profile: streaming}}"))
        let printed = try deck.run("export")
        #expect(printed.out == written)
        let check = try deck.run("check", file)
        #expect(check.status == 0 && check.outLines.isEmpty)
        let json = try deck.json("export", "--profile", "streaming")
        #expect(json.objects.first?["type"] as? String == "export" && json.objects.first?["profile"] as? String == "streaming")
        let nowhere = try deck.run("export", "-o", folder.appending("missing/x.yaml").path)
        #expect(nowhere.status == 1 && nowhere.errLines.first?.hasSuffix(": No such file or directory; make the folder first, or give a path in one that exists") == true)
        #expect(try deck.run("export", "--profile", "nope").status == 1)
    }

    @Test func pairUnpairAndTheToken() throws {
        let deck = try DeckctlAgainstHost(arguments: ["--require-token"])
        let pair = try deck.run("pair", "Kim's iPad")
        #expect(pair.status == 0 && pair.outLines.first == "paired 'Kim's iPad'; its token is:")
        let token = try #require(pair.outLines.dropFirst().first?.trimmingCharacters(in: .whitespaces))
        let ipad = try deck.host.device("Kim's iPad", kind: "tablet", token: token)
        let devices = try deck.run("devices").outLines
        #expect(devices.first == "paired devices:")
        #expect(devices.contains { $0.hasPrefix("  Kim's iPad  paired 20") && $0.hasSuffix("  connected") })
        #expect(devices.contains { $0.hasPrefix("Kim's iPad  tablet  127.0.0.1:") })
        let json = try deck.json("pair", "Other")
        #expect(json.objects.first?["type"] as? String == "paired" && (json.objects.first?["token"] as? String)?.isEmpty == false)
        let unpair = try deck.run("unpair", "Kim's iPad")
        #expect(unpair.status == 0)
        #expect(ipad.isClosed())
        let again = try deck.run("unpair", "Kim's iPad")
        #expect(again.status == 1 && again.errLines.first?.hasPrefix("notFound: ") == true)
    }

    @Test func watchPrintsEventsAndStopsCleanly() throws {
        let deck = try DeckctlAgainstHost()
        let watch = try deck.watch()
        try watch.waitForLine(containing: "watching profile 'default' at revision")
        let phone = try deck.host.device("Kim's iPhone")
        try watch.waitForLine(containing: "Kim's iPhone joined (phone, 127.0.0.1:")
        #expect(try deck.run("move", "0", "1", "0", "4").status == 0)
        let moved = try watch.waitForLine(containing: "moved 'Terminal' 0/1 -> 0/4 by deckctl, revision")
        // The layout of that revision is not shown again: the event said it.
        let revision = try #require(moved.split(separator: " ").last)
        #expect(!watch.printed.contains { $0.contains("is now revision \(revision) ") })
        _ = try phone.request(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 2,
                                          button: DeckButton(name: "Terminal", action: .run(command: "true"))))
        try watch.waitForLine(containing: "refused moveButton from Kim's iPhone: stale: ")
        #expect(try deck.run("press", "0", "2").status == 0)
        try watch.waitForLine(containing: "pressed 'Build' at 0/2 by deckctl")
        try watch.waitForLine(containing: "'Build' at 0/2 (run, pressed by deckctl): failed with exit status 2")
        #expect(try deck.run("lock").status == 0)
        try watch.waitForLine(containing: "locked by deckctl")
        #expect(try deck.run("unlock").status == 0)
        try watch.waitForLine(containing: "unlocked by deckctl")
        try deck.host.write("default.yaml", "pages: [\n")
        _ = try deck.run("reload")
        try watch.waitForLine(containing: "reload of 'default'")
        try watch.waitForLine(containing: "  default.yaml:")
        phone.line.shutdownSending()
        try watch.waitForLine(containing: "Kim's iPhone left (it closed the connection)")
        for line in watch.printed { #expect(line.range(of: #"^\d\d:\d\d:\d\d "#, options: .regularExpression) != nil, "\(line)") }
        #expect(!watch.printed.contains { $0.contains("deckctl joined") || $0.contains("deckctl left") })
        #expect(watch.stop(with: SIGINT) == 0)
    }

    /// CLI.md's log line for a move (`moved 'Files' 0/1 -> 1/0 by Kim's
    /// iPhone`), and `watch` printing each edit in the log's words.
    @Test func watchPrintsEachEditAsTheHostLogsIt() throws {
        let deck = try DeckctlAgainstHost()
        let watch = try deck.watch()
        try watch.waitForLine(containing: "watching profile 'default' at revision")
        let phone = try deck.host.device("Kim's iPhone")
        let layout = try #require(phone.welcome?.layout)
        let terminal = try #require(layout.button(page: 0, index: 1))
        let lock = try #require(layout.button(page: 1, index: 0))
        for (from, to) in [((0, 1), (0, 7)), ((0, 7), (1, 0))] {
            let reply = try phone.request(.moveButton(fromPage: from.0, fromIndex: from.1, toPage: to.0, toIndex: to.1, button: terminal))
            #expect(reply.type == "ok", "\(reply)")
        }
        #expect(try deck.run("set", "0", "6", "--name", "Mail", "--open", "mailto:a@b.c").status == 0)
        #expect(try deck.run("set", "0", "6", "--name", "Post", "--open", "mailto:a@b.c").status == 0)
        #expect(try deck.run("clear", "0", "6").status == 0)
        let expected = [
            "moved 'Terminal' 0/1 -> 0/7 by Kim's iPhone",
            "moved 'Terminal' 0/7 -> 1/0 (swapped with '\(lock.name)') by Kim's iPhone",
            "set 'Mail' at 0/6 by deckctl",
            "set 'Post' at 0/6 (replacing 'Mail') by deckctl",
            "cleared 'Post' at 0/6 by deckctl",
        ]
        for words in expected {
            let line = try watch.waitForLine(containing: words + ", revision ")
            #expect(line.range(of: #"^\d\d:\d\d:\d\d "#, options: .regularExpression) != nil, "\(line)")
            #expect(deck.host.waitForLog(words))
            let logged = deck.host.log.split(separator: "\n").first { $0.hasSuffix(" info " + words) }
            #expect(logged?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ info "#, options: .regularExpression) != nil,
                    "no log line '\(words)'")
        }
        #expect(watch.stop(with: SIGINT) == 0)
    }

    @Test func watchAllShowsControlConnections() throws {
        let deck = try DeckctlAgainstHost()
        let watch = try deck.watch(all: true)
        try watch.waitForLine(containing: "watching profile")
        #expect(try deck.run("status").status == 0)
        try watch.waitForLine(containing: "deckctl joined (control, control, protocol 8)")
        try watch.waitForLine(containing: "deckctl left (it closed the connection)")
        #expect(watch.stop(with: SIGINT) == 0)
    }

    @Test func watchJSONAndSIGTERM() throws {
        let deck = try DeckctlAgainstHost()
        let watch = try deck.watch(json: true)
        // With --json nothing is printed before the first event, so connect
        // devices until the subscription (which races the first one) sees a join.
        var devices: [HostClient] = []
        var join: String?
        for attempt in 0..<20 where join == nil {
            devices.append(try deck.host.device("late \(attempt)"))
            join = try? watch.waitForLine(containing: #""event":"join""#, timeout: .milliseconds(500))
        }
        let joined = try #require(join)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(joined.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "event")
        #expect(try deck.run("clear", "0", "0").status == 0)
        try watch.waitForLine(containing: #""type":"layout""#)
        for line in watch.printed { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)") }
        #expect(watch.stop(with: SIGTERM) == 0)
    }

    @Test func watchExits3WhenTheHostGoesAway() throws {
        let deck = try DeckctlAgainstHost()
        let watch = try deck.watch()
        try watch.waitForLine(containing: "watching profile")
        try deck.host.stop()
        #expect(try watch.exitStatus() == 3)
        #expect(watch.errorText.contains("deckctl: the host on \(deck.host.control) "))
        let status = try deck.run("status")
        #expect(status.status == 3 && status.errLines.first?.contains("start it with 'deckd'") == true)
    }
}
