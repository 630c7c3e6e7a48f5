import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// Bugs that HostCore's old shape hid (issue 19), end to end with a real deckd.
@Suite("HostCore: bugs its old shape hid")
struct HostCoreBugTests {
    /// A profile whose layout is about 1.8 MB of JSON (under the 2 MiB a
    /// layout may have): its welcome and three broadcasts, about 7 MB, are
    /// more than the kernel takes from a client that does not read (deckd
    /// caps its unsent bytes at 64 KiB, docs/transport.md), so most of it
    /// stays queued in the host, and less than the 8 MiB after which a
    /// client is closed as slow.
    static let largeYAML: String = {
        let name = String(repeating: "x", count: 3600)
        var text = "name: default\npages:\n"
        for page in 0..<40 {
            text += "  - buttons:\n"
            for slot in 0..<12 { text += "      \(slot): {name: \"\(page) \(slot) \(name)\", action: {run: \"true\"}}\n" }
        }
        return text
    }()

    /// `pair` (replacing a token) and `unpair` close the connections that
    /// presented the revoked token after what is queued for them, not at
    /// once: they used to `close()`, dropping the replies and broadcasts
    /// still owed (here most of a welcome and the newest layout: a layout
    /// not yet written is replaced by a newer one, PROTOCOL.md §5 — with the
    /// kernel's 4 MB send buffer once, all three had gone into the kernel).
    @Test(arguments: ["pair", "unpair"])
    func revokingATokenClosesItsConnectionsAfterWhatIsQueuedForThem(_ request: String) throws {
        let host = try startedHost(["default.yaml": Self.largeYAML], arguments: ["--require-token"])
        let control = try host.controlClient()
        let watcher = try host.controlClient("watcher")
        try watcher.expectOK(.subscribe)
        guard case .paired(_, _, let token, _) = try control.request(.pair(name: "kim")),
              case .paired(_, _, let editorToken, _) = try control.request(.pair(name: "editor")) else { Issue.record("no token"); return }
        let editor = try host.device("editor", token: editorToken)
        let phone = try host.rawDevice()
        try phone.send(.hello(Hello(device: Device(name: "phone", kind: "phone"), token: token)))
        // `join` follows the welcome, which the phone does not read yet; it is known by its paired name (WEB.md §3).
        _ = try watcher.next(timeout: .seconds(20)) { if case .event(.join(let client)) = $0 { client.name == "kim" } else { false } }
        var layout = editor.welcomeLayout
        for _ in 0..<3 {
            let button = try #require(layout.button(page: 0, index: 0))
            try editor.expectOK(.moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 1, button: button))
            layout = try editor.nextLayout(timeout: .seconds(20)).layout
        }
        if request == "pair" {
            guard case .paired = try control.request(.pair(name: "kim")) else { Issue.record("pair again failed"); return }
        } else {
            try control.expectOK(.unpair(name: "kim"))
        }
        guard case .welcome(_, let welcome) = try phone.next(timeout: .seconds(20)) else { Issue.record("no welcome"); return }
        #expect(welcome.layout.button(page: 39, index: 11)?.name.hasPrefix("39 11 ") == true)
        var revisions: [Int] = []
        while revisions.last != welcome.revision + 3 {
            revisions.append(try phone.nextLayout(timeout: .seconds(20)).revision)
        }
        #expect(revisions == revisions.sorted() && Set(revisions).count == revisions.count && revisions.count <= 3,
                "each layout newer than the last, the newest last: \(revisions)")
        #expect(phone.isClosed())
    }
}
