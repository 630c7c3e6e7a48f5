import DeckModel
import DeckPluginKit
@testable import DeckPlugins
import DeckTestSupport
import Foundation
import Testing

/// `setStatus`: a plugin's own sentence in its status while it runs (docs/plugins.md).
@Suite struct PluginStatusTests {
    /// Says ready; on a press of `say` reports a status with a control character and 300 letters; `clear` clears it; `quit` exits.
    static let reporter = TestPlugin.python("reporter", """
        import json, sys
        def out(message):
            print(json.dumps(message), flush=True)
        for line in sys.stdin:
            event = json.loads(line)
            kind = event.get("event")
            if kind == "hello":
                out({"type": "ready"})
            elif kind == "press" and event["phase"] != "up":
                command = event["command"]
                if command == "say":
                    out({"type": "setStatus", "status": "connected\\tto " + "x" * 300})
                elif command == "clear":
                    out({"type": "setStatus", "status": None})
                elif command == "quit":
                    sys.exit(0)
            elif kind == "shutdown":
                sys.exit(0)
        """)

    @Test func theStatusShowsWhileItRunsBoundedAndIsForgottenWithTheProcess() throws {
        let harness = try PluginHarness(plugins: [Self.reporter])
        let layout = try PluginLayouts.with([("reporter", "say"), ("reporter", "clear"), ("reporter", "quit")])
        try harness.show(layout)
        #expect(harness.wait { $0.statuses.last?.state == "running" })
        try harness.press(layout, page: 0, index: 0, phase: .tap, tag: "say")
        let said = "connected to " + String(repeating: "x", count: 200 - "connected to ".count)
        #expect(harness.wait { _ in (try? harness.status("reporter")?.message) == said }, "\(harness.logText)")
        // A change of it is a status change the host hears of (deckctl watch's plugin event).
        #expect(harness.record.withLock { $0.statuses.contains { $0.message == said } })
        try harness.press(layout, page: 0, index: 1, phase: .tap, tag: "clear")
        #expect(harness.wait { _ in (try? harness.status("reporter")?.message) == "" })
        try harness.press(layout, page: 0, index: 0, phase: .tap, tag: "say again")
        #expect(harness.wait { _ in (try? harness.status("reporter")?.message) == said })
        try harness.press(layout, page: 0, index: 2, phase: .tap, tag: "quit")
        #expect(harness.wait { _ in (try? harness.status("reporter")?.message) != said }, "the sentence ends with the process")
    }
}
