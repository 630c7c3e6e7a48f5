import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// PROTOCOL.md §5 `holdSlots` from a real deckd: the slots whose button runs
/// a plugin command declared `hold: true`, in `welcome` and every `layout`,
/// following edits and the plugins' manifests.
@Suite("holdSlots in welcome and layout")
struct HoldSlotsHostTests {
    static func manifest(hold: Bool) -> String {
        "id: recorder\nexec: [./plugin]\ncommands:\n  - {name: talk, hold: \(hold)}\n  - {name: other}\n"
    }

    static func declare(_ host: HostProcess, hold: Bool) throws {
        try Data(manifest(hold: hold).utf8).write(to: URL(fileURLWithPath: host.root.path + "/plugins/recorder/plugin.yaml"))
    }

    @Test func welcomeAndLayoutListTheHoldSlots() throws {
        let host = try HostProcess.withRecorder()
        try Self.declare(host, hold: true)
        try host.start()
        let device = try host.device()
        #expect(device.welcome?.holdSlots == [DeckSlot(page: 0, index: 0)])
        let talk = try #require(device.welcomeLayout.button(page: 0, index: 0))
        try device.expectOK(.moveButton(fromPage: 0, fromIndex: 0, toPage: 0, toIndex: 5, button: talk))
        let moved = try device.next { if case .layout = $0 { true } else { false } }
        guard case let .layout(_, revision, _, holdSlots, _) = moved else { Issue.record("\(moved)"); return }
        #expect(holdSlots == [DeckSlot(page: 0, index: 5)])
        // The manifest no longer declares it: the same revision again, without holdSlots.
        try Self.declare(host, hold: false)
        try host.controlClient().expectOK(.reload)
        let relabelled = try device.next { if case .layout = $0 { true } else { false } }
        guard case let .layout(_, again, _, none, _) = relabelled else { Issue.record("\(relabelled)"); return }
        #expect(again == revision)
        #expect(none.isEmpty)
        #expect(try host.device().welcome?.holdSlots == [])
    }
}
