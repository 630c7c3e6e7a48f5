import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckProfiles
@testable import DeckTransport

/// RebaseHostTests' rules (PROFILE.md §5) on the rules alone: a hand save
/// of the live file replays the device edits made since its last load on
/// it; what cannot be replayed is named with the generation `restore`
/// brings back (``RebaseReport``, the words the shell logs and `status`
/// shows). The deckd tests keep the watch, the report's performing and
/// `restore` through a process, and kill -9.
@Suite("HostState rules: device edits rebased onto a hand save")
struct HostRulesRebaseTests {
    typealias R = Rules

    static let persist = RebaseHostTests.persist

    /// The one `rebased` effect of a save's actions.
    static func rebase(_ actions: [HostAction]) throws -> EditRebase {
        let effects = try #require(R.onlyCommit(actions)).outcome.effects
        let rebases = effects.compactMap { effect -> EditRebase? in
            if case .rebased(_, _, let rebase, _, _, _) = effect { rebase } else { nil }
        }
        try #require(rebases.count == 1, "\(effects)")
        return rebases[0]
    }

    /// deckctl sets Persist at 0/8, durable as generation 2.
    static func persisted() throws -> HostState {
        var host = try R.serving(["default.yaml": deskYAML])
        let actions = host.handle(.request(R.control, R.message(.setButton(page: 0, index: 8, button: Self.persist))))
        #expect(R.onlyCommit(actions)?.writeReason == "setButton")
        R.durable(&host, generation: 2)
        return host
    }

    /// The save `text` goes live and reaches the disk as `generation`; its rebase and the report the shell makes of it.
    static func save(_ host: inout HostState, _ text: String, generation: Int) throws -> (EditRebase, RebaseReport) {
        let actions = try R.saved(&host, R.folder(["default.yaml": text]))
        #expect(R.onlyCommit(actions)?.writeReason == "reload")
        let rebase = try Self.rebase(actions)
        R.durable(&host, generation: generation, reason: "reload")
        return (rebase, RebaseReport(profile: "default", file: "default.yaml", rebase: rebase,
                                     generation: host.live.generationBeforeWritten))
    }

    @Test func anUnrelatedHandSaveKeepsTheDeviceEditThroughTwoSaves() throws {
        var host = try Self.persisted()
        let (first, report) = try Self.save(&host, deskYAML.replacingOccurrences(of: "name: Build", with: "name: Compile"),
                                            generation: 3)
        #expect(first.dropped.isEmpty && first.kept.count == 1)
        #expect(report.summary == "kept 1 device edit made since the file was last loaded" && report.events.isEmpty)
        #expect(host.live.committed.layout.button(page: 0, index: 8) == Self.persist)
        #expect(host.live.committed.layout.button(page: 0, index: 2)?.name == "Compile")
        let (second, _) = try Self.save(&host, deskYAML.replacingOccurrences(of: "name: Build", with: "name: Make"), generation: 4)
        #expect(second.kept == first.kept && second.dropped.isEmpty)
        #expect(host.live.committed.layout.button(page: 0, index: 8) == Self.persist)
        #expect(host.live.committed.layout.button(page: 0, index: 2)?.name == "Make")
    }

    @Test func aHandEditOfTheSameSlotDropsTheEditAndNamesTheGenerationBeforeIt() throws {
        var host = try Self.persisted()
        let mine = deskYAML.replacingOccurrences(of: "      5: {name: Next",
                                                 with: "      8: {name: Mine, action: {run: \"true\"}}\n      5: {name: Next")
        let (rebase, report) = try Self.save(&host, mine, generation: 3)
        #expect(rebase.kept.isEmpty && host.live.committed.edits.isEmpty)
        let dropped = try #require(report.events.first)
        #expect(report.events.count == 1)
        #expect(dropped.button == "Persist" && dropped.page == 0 && dropped.index == 8)
        #expect(dropped.generation == 2, "the setButton's generation, which restore brings back")
        #expect(dropped.reason == "the file changed slot 0/8")
        #expect(report.summary == "kept 0 device edits made since the file was last loaded, dropped 1")
        #expect(report.sentences.count == 1)
        #expect(report.sentences.first?.contains("set 'Persist' at 0/8 (the file changed slot 0/8); `deckctl restore 2`") == true,
                "\(report.sentences)")
        #expect(host.live.committed.layout.button(page: 0, index: 8)?.name == "Mine")
    }

    struct Drop: Sendable, CustomTestStringConvertible {
        let request: ClientRequest
        let from: String, to: String
        /// The dropped edit's summary and why.
        let edit: String, reason: String
        var testDescription: String { edit }
    }

    static let drops: [Drop] = [
        // The seed's rule: a move whose source the file renamed is dropped — no duplicate button, no lost one.
        Drop(request: .moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 9,
                                  button: DeckButton(name: "Terminal", action: .run(command: "true"))),
             from: "name: Terminal", to: "name: Shell", edit: "move 'Terminal' 0/1 -> 0/9", reason: "the file changed slot 0/1"),
        Drop(request: .clearButton(page: 1, index: 0, expecting: nil), from: "name: Lock", to: "name: Lock screen",
             edit: "clear 'Lock' at 1/0", reason: "the file changed slot 1/0"),
        Drop(request: .setButton(page: 0, index: 0, button: DeckButton(name: "Home", action: .open("~"))),
             from: "name: Files", to: "name: Folder", edit: "set 'Home' at 0/0", reason: "the file changed slot 0/0"),
    ]

    @Test(arguments: drops)
    func anEditOfASlotTheFileChangedIsDroppedAndTheFileWins(_ drop: Drop) throws {
        var host = try R.serving(["default.yaml": deskYAML])
        _ = host.handle(.request(R.phone, R.message(drop.request)))
        R.durable(&host, generation: 2)
        let text = deskYAML.replacingOccurrences(of: drop.from, with: drop.to)
        let (rebase, report) = try Self.save(&host, text, generation: 3)
        #expect(rebase.dropped.map(\.edit.summary) == [drop.edit])
        #expect(rebase.dropped.map(\.reason) == [drop.reason])
        #expect(report.events.map(\.edit) == [drop.edit])
        // The file as saved, whole: its buttons, none twice and none lost.
        let file = try #require(R.read("default.yaml", text).profile)
        #expect(host.live.committed.layout == file.layout && host.live.committed.edits.isEmpty)
    }
}
