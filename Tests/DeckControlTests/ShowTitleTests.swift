import DeckModel
import DeckTestSupport
import Foundation
import Testing

/// Issue 17 §4: `deckctl show` shows a plugin's title where one is set, as a device does.
@Suite("show: plugin titles")
struct ShowTitleTests {
    static let titler = """
        #!/usr/bin/env python3
        import json, sys
        for line in sys.stdin:
            event = json.loads(line)
            if event.get("event") == "hello":
                print(json.dumps({"type": "ready"}), flush=True)
            elif event.get("event") == "buttons":
                for b in event["buttons"]:
                    print(json.dumps({"type": "setTitle", "page": b["page"], "index": b["index"], "title": "Count: 3"}), flush=True)
            elif event.get("event") == "shutdown":
                sys.exit(0)
        """

    @Test func aTitleASetIsShownInPlaceOfTheName() throws {
        let host = try HostProcess(files: ["default.yaml": """
            pages:
              - buttons:
                  0: {name: Count, action: {plugin: titler, command: increment}}
                  1: {name: Files, action: {open: "~"}}
            """])
        let folder = host.root.path + "/plugins/titler"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(Self.titler.utf8).write(to: URL(fileURLWithPath: folder + "/plugin"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/plugin")
        try Data("id: titler\nexec: [./plugin]\n".utf8).write(to: URL(fileURLWithPath: folder + "/plugin.yaml"))
        try host.start()
        #expect(host.waitForLog("plugin 'titler'"))
        let deckctl = try BuiltProducts.path("deckctl")
        let deadline = ContinuousClock.now + .seconds(10)
        var lines: [String] = []
        while ContinuousClock.now < deadline {
            lines = try ProcessRun.run(deckctl, ["--control", host.control, "show", "0"]).outLines
            if lines.contains(where: { $0.contains("Count: 3") }) { break }
            usleep(100_000)
        }
        #expect(lines.contains { $0.hasPrefix("│ Count: 3") }, "\(lines)")
        #expect(lines.contains { $0.contains("│ Files") })
        #expect(!lines.contains { $0.contains("│ Count ") })
    }
}
