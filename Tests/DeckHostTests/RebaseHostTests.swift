import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// PROFILE.md §5 end to end: a hand save of a profile file rebases the
/// device edits made since its last load, live and after kill -9. The
/// rebase's rules (what is kept, what is dropped and why, the generation
/// named) are `HostRulesRebaseTests`; these keep the watch, the report as
/// the shell performs it (event, log, `status`), `restore` and kill -9.
@Suite("Rebase of device edits onto a hand-saved file")
struct RebaseHostTests {
    static let persist = DeckButton(name: "Persist", action: .run(command: "true"))

    /// The reasons of the live profile's generations, newest first.
    static func reasons(_ control: HostClient) throws -> [String] {
        guard case .snapshots(_, _, let list) = try control.request(.snapshots(profile: nil)) else { return [] }
        return list.map(\.reason)
    }

    static func waitForReload(_ control: HostClient) throws -> (revision: Int?, dropped: [DroppedEdit]) {
        let event = try control.next(timeout: .seconds(10)) { if case .event(.reload(_, _?, [], _, _)) = $0 { true } else { false } }
        guard case .event(.reload(_, let revision, _, let dropped, _)) = event else { return (nil, []) }
        return (revision, dropped)
    }

    /// A hand edit of the very slot a device changed: the file wins that
    /// slot, and the edit is named in the event, the log and `status`, with
    /// the generation that `restore` brings back.
    @Test func aHandEditOfTheSameSlotDropsTheEditAndNamesIt() throws {
        let host = try startedHost()
        let control = try host.controlClient()
        try control.expectOK(.subscribe)
        try control.expectOK(.setButton(page: 0, index: 8, button: Self.persist))
        let before = try #require(try control.request(.snapshots(profile: nil)).generations.first)
        try host.write("default.yaml", deskYAML.replacingOccurrences(
            of: "      5: {name: Next", with: "      8: {name: Mine, action: {run: \"true\"}}\n      5: {name: Next"))
        let reload = try Self.waitForReload(control)
        let dropped = try #require(reload.dropped.first)
        #expect(reload.dropped.count == 1)
        #expect(dropped.button == "Persist" && dropped.page == 0 && dropped.index == 8)
        #expect(dropped.generation == before)
        #expect(dropped.reason == "the file changed slot 0/8")
        #expect(try host.device().welcomeLayout.button(page: 0, index: 8)?.name == "Mine")
        #expect(host.waitForLog("set 'Persist' at 0/8 (the file changed slot 0/8); `deckctl restore \(before)`"))
        #expect(try control.status().notices.contains { $0.contains("'Persist'") && $0.contains("restore \(before)") })
        try control.expectOK(.restore(generation: before))
        #expect(try host.device().welcomeLayout.button(page: 0, index: 8) == Self.persist)
    }

    /// Edits, kill -9, the file changed while deckd was down, restart: the
    /// rebase happens at start, as one `reload` generation.
    @Test func aFileChangedWhileTheHostWasKilledIsRebasedAtStart() throws {
        let host = try startedHost()
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        try device.expectOK(.setButton(page: 0, index: 8, button: Self.persist))
        try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 5, button: terminal))
        let revision = try #require(try device.expectOK(.clearButton(page: 1, index: 0, expecting: nil)))
        try host.kill9()
        // Build renamed (a slot no edit touched); Lock at 1/0, which the device cleared, renamed too.
        try host.write("default.yaml", deskYAML.replacingOccurrences(of: "name: Build", with: "name: Compile")
            .replacingOccurrences(of: "name: Lock", with: "name: Lock screen"))
        try host.start()
        let again = try host.device()
        let layout = again.welcomeLayout
        #expect(try #require(again.welcome?.revision) > revision)
        #expect(layout.button(page: 0, index: 8) == Self.persist)
        #expect(layout.button(page: 1, index: 5) == terminal)
        #expect(layout.button(page: 0, index: 1) == nil)
        #expect(layout.button(page: 0, index: 2)?.name == "Compile")
        #expect(layout.button(page: 1, index: 0)?.name == "Lock screen")  // the file changed the cleared slot
        let control = try host.controlClient()
        #expect(try Self.reasons(control).first == "reload")
        let notices = try control.status().notices
        #expect(notices.contains { $0.contains("kept 2 device edits") && $0.contains("dropped 1") })
        #expect(notices.contains { $0.contains("clear 'Lock' at 1/0") })
        // What was kept is still recorded: the next hand save rebases it again.
        try host.write("default.yaml", deskYAML)
        #expect(try again.nextLayout(timeout: .seconds(10)).layout.button(page: 0, index: 8) == Self.persist)
    }
}

extension HostMessage {
    /// The generations of a `snapshots` reply, newest first.
    var generations: [Int] {
        if case .snapshots(_, _, let list) = self { list.map(\.generation) } else { [] }
    }
}
