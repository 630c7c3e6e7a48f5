import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

@Suite("Presses end to end: run, open, page, profile, plugin")
struct PressTests {
    static func actionEvent(_ message: HostMessage) -> ActionOutcome? {
        if case .event(.action(_, _, _, _, let outcome, _)) = message { outcome } else { nil }
    }

    @Test func aRunButtonRunsInItsFolderAndReportsItsExit() throws {
        let host = try HostProcess(files: [:])
        try host.write("default.yaml", """
            pages:
              - buttons:
                  0: {name: Touch, action: {run: "echo hello; pwd > done.txt", cwd: "\(host.root.path)"}}
                  1: {name: Fail, action: {run: "exit 3"}}
                  2: {name: Slow, action: {run: "sleep 100 & sleep 100", timeout: 0.3}}
                  3: {name: Mute, action: {plugin: audio, command: mute}}
                  4: {name: Next, action: {page: next}}
                  5: {name: Last, action: {page: 7}}
            """)
        try host.start()
        let device = try host.device()
        let control = try host.controlClient()
        try control.expectOK(.subscribe)
        try device.expectOK(.press(page: 0, index: 0, button: nil, phase: .tap))
        #expect(try Self.actionEvent(control.next(where: { Self.actionEvent($0) != nil })) == .exited(status: 0))
        #expect((try? String(contentsOfFile: host.root.path + "/done.txt", encoding: .utf8)) == host.root.path + "\n")
        #expect(host.waitForLog("'Touch': hello"))
        try device.expectOK(.press(page: 0, index: 1, button: nil, phase: .down))
        #expect(try Self.actionEvent(control.next(where: { Self.actionEvent($0) != nil })) == .exited(status: 3))
        try device.expectOK(.press(page: 0, index: 2, button: nil, phase: .tap))
        let started = ContinuousClock.now
        #expect(try Self.actionEvent(control.next(where: { Self.actionEvent($0) != nil })) == .timedOut(seconds: 0.3))
        #expect(ContinuousClock.now - started < .seconds(5))
        // `up` runs nothing for a built-in action.
        try device.expectOK(.press(page: 0, index: 1, button: nil, phase: .up))
        var seen: [HostMessage] = []
        while let message = try? control.next(timeout: .milliseconds(300)) { seen.append(message) }
        #expect(seen.contains { if case .event(.press(_, _, _, .up, _)) = $0 { true } else { false } })
        #expect(!seen.contains { Self.actionEvent($0) != nil })
        // A plugin that is not installed: the press is answered, its event says so.
        try device.expectOK(.press(page: 0, index: 3, button: nil, phase: .tap))
        #expect(try Self.actionEvent(control.next(where: { Self.actionEvent($0) != nil })) == .pluginUnavailable(plugin: "audio"))
        #expect(host.waitForLog("'Mute' (plugin) could not reach plugin 'audio': it is not installed (looked in"))
        // A plugin folder made while the host runs is read on reload only: the line says so.
        #expect(host.waitForLog("; a plugin added there later is found by 'deckctl reload')"))
        try device.expectOK(.press(page: 0, index: 4, button: nil, phase: .tap))
        guard case .showPage(1) = try device.next() else { Issue.record("no showPage 1"); return }
        // `delivered` of a page action: no plugin in the words.
        #expect(host.waitForLog("'Next' (page) sent the page to the device that pressed it"))
        try device.expectOK(.press(page: 0, index: 5, button: nil, phase: .tap))
        guard case .showPage(1) = try device.next() else { Issue.record("showPage not kept inside the layout"); return }
        try device.expectError(.press(page: 0, index: 9, button: nil, phase: .tap), .empty)
        try device.expectError(.press(page: 5, index: 0, button: nil, phase: .tap), .outOfRange)
        try device.expectError(.press(page: 0, index: 0, button: DeckButton(name: "Other", action: .run(command: "x")), phase: .tap), .stale)
    }

    @Test func openUsesTheOpenerWithTheTargetAsOneArgument() throws {
        let host = try HostProcess(files: ["default.yaml": """
            pages:
              - buttons:
                  0: {name: Web, action: {open: "https://example.com/a b?c=$(rm)"}}
                  1: {name: Home, action: {open: "~/notes"}}
            """])
        let out = host.root.path + "/opened.txt"
        try host.start(extra: ["--opener", "printf '%s\\n' >> '\(out)'"])
        let device = try host.device()
        let control = try host.controlClient()
        try control.expectOK(.subscribe)
        for index in 0...1 {
            try device.expectOK(.press(page: 0, index: index, button: nil, phase: .tap))
            #expect(try Self.actionEvent(control.next(where: { Self.actionEvent($0) != nil })) == .exited(status: 0))
        }
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "https://example.com/a b?c=$(rm)")
        #expect(lines.last?.hasSuffix("/notes") == true && lines.last?.hasPrefix("~") == false)
    }
}
