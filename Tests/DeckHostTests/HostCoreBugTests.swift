import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// Bugs that HostCore's old shape hid (issue 19), end to end with a real deckd.
@Suite("HostCore: bugs its old shape hid")
struct HostCoreBugTests {
    /// A profile whose layout is about 6 MB of JSON: a client that does not
    /// read yet leaves most of its welcome queued in the host, beyond what
    /// the kernel's socket buffers take.
    static let hugeYAML: String = {
        let name = String(repeating: "x", count: 4000)
        var text = "name: default\npages:\n"
        for page in 0..<120 {
            text += "  - buttons:\n"
            for slot in 0..<12 { text += "      \(slot): {name: \"\(page) \(slot) \(name)\", action: {run: \"true\"}}\n" }
        }
        return text
    }()

    /// `pair` (replacing a token) and `unpair` close the connections that
    /// presented the revoked token after what is queued for them, not at
    /// once: they used to `close()`, dropping the replies still owed (here
    /// most of a welcome).
    @Test(arguments: ["pair", "unpair"])
    func revokingATokenClosesItsConnectionsAfterWhatIsQueuedForThem(_ request: String) throws {
        let host = try startedHost(["default.yaml": Self.hugeYAML], arguments: ["--require-token"])
        let control = try host.controlClient()
        let watcher = try host.controlClient("watcher")
        try watcher.expectOK(.subscribe)
        guard case .paired(_, _, let token, _) = try control.request(.pair(name: "kim")) else { Issue.record("no token"); return }
        let phone = try host.rawDevice()
        try phone.send(.hello(Hello(device: Device(name: "phone", kind: "phone"), token: token)))
        // `join` follows the welcome, which the phone has not read.
        _ = try watcher.next(timeout: .seconds(20)) { if case .event(.join) = $0 { true } else { false } }
        if request == "pair" {
            guard case .paired = try control.request(.pair(name: "kim")) else { Issue.record("pair again failed"); return }
        } else {
            try control.expectOK(.unpair(name: "kim"))
        }
        guard case .welcome(_, let welcome) = try phone.next(timeout: .seconds(20)) else { Issue.record("no welcome"); return }
        #expect(welcome.layout.button(page: 119, index: 11)?.name.hasPrefix("119 11 ") == true)
        #expect(phone.isClosed())
    }

    /// A `restore` is no device's edit: the next batch does not wait for the
    /// control client that sent it. It used to be credited to it, so a
    /// device's edit right after waited for a client that never edits (for
    /// the whole gather window, here made long).
    @Test func aRestoreIsNotCreditedToTheControlClient() throws {
        let host = try startedHost(arguments: ["--gather-window", "120000"])
        let device = try host.device()
        let control = try host.controlClient()
        let reply = try control.request(.snapshots(profile: nil))
        guard case .snapshots(_, _, let list) = reply, let generation = list.first?.generation else { Issue.record("\(reply)"); return }
        try control.expectOK(.restore(generation: generation))
        let files = try #require(device.welcomeLayout.button(page: 0, index: 0))
        // The control client stays connected; the device's edit goes at once.
        let moved = try device.request(.moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 8, button: files),
                                       timeout: .seconds(20))
        #expect(moved.type == "ok")
    }
}
