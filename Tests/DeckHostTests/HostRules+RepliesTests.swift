import DeckModel
import DeckProtocol
import Testing
@testable import DeckHost
@testable import DeckProfiles
@testable import DeckTransport

/// The `status` and `profiles` replies and a rebase's report, made by the
/// rules from the state (the shell adds only the running process's facts).
@Suite("HostState rules: status, profiles and the rebase report")
struct HostRulesRepliesTests {
    typealias R = Rules

    static let facts = StatusFacts(host: HostInfo(version: "9.9"),
                                   plugins: [PluginStatus(id: "talk", state: "running", message: "")],
                                   tlsFingerprint: "AB:CD")

    @Test func statusIsTheCommittedStateWithTheProcessFacts() throws {
        var host = try R.host()
        _ = host.handle(.request(R.control, R.message(.lock)))
        let status = host.status(Self.facts)
        #expect(status.host == Self.facts.host && status.plugins == Self.facts.plugins && status.tlsFingerprint == "AB:CD")
        #expect(status.profile == "default" && status.revision == 5 && status.locked)
        // Sorted by name, then address: a client the reply lists is who the state says joined.
        #expect(status.clients.map(\.name) == ["deckctl", "kim", "lee"])
        // The live profile is listed even when no file of the folder holds it.
        #expect(status.profiles == ["default"] && status.problems.isEmpty)
    }

    @Test func statusListsTheFolderAndItsProblemsRelativeToIt() throws {
        let host = try R.serving(["default.yaml": deskYAML, "broken.yaml": "name: [\n"])
        let status = host.status(Self.facts)
        #expect(status.profiles == ["default"])
        let problem = try #require(status.problems.first)
        #expect(problem.file == "broken.yaml" && problem.line > 0)
    }

    @Test func profilesShowTheLiveLayoutOfTheLiveProfile() throws {
        var host = try R.serving(["default.yaml": deskYAML])
        let before = host.profilesReply(id: 4)
        guard case let .profiles(id, active, infos) = before else { Issue.record("\(before)"); return }
        #expect(id == 4 && active == "default" && infos.map(\.name) == ["default"] && infos[0].file == "default.yaml")
        // A device's edit fills an empty slot: the reply counts the live layout, not the file's.
        let layout = host.live.committed.layout
        let empty = try #require((0..<layout.slotsPerPage).first { layout.button(page: 0, index: $0) == nil })
        _ = host.handle(.request(R.control, R.message(.setButton(page: 0, index: empty, button: R.later))))
        R.durable(&host, generation: 2)
        guard case let .profiles(_, _, after) = host.profilesReply(id: nil) else { Issue.record("no profiles reply"); return }
        #expect(after[0].pages == infos[0].pages && after[0].buttons == infos[0].buttons + 1)
    }

    @Test func aRebaseKeepingAnEditIsItsEventAndOneLogLineWithoutANotice() throws {
        var host = try HostRulesRebaseTests.persisted()
        let (rebase, report) = try HostRulesRebaseTests.save(
            &host, deskYAML.replacingOccurrences(of: "name: Build", with: "name: Compile"), generation: 3)
        let actions = host.rebaseReported(profile: "default", file: "default.yaml", rebase, revision: 7, by: nil,
                                          log: "reloaded the profiles")
        #expect(actions == [
            .perform(.event(.reload(profile: "default", revision: 7, problems: [], dropped: [], by: nil))),
            .log(.info, "reloaded the profiles; " + report.summary),
        ])
    }

    @Test func aRebaseDroppingAnEditNamesItInTheEventAndAsANotice() throws {
        var host = try HostRulesRebaseTests.persisted()
        // The file now holds its own button at 0/8, where the device set Persist.
        let mine = deskYAML.replacingOccurrences(of: "      5: {name: Next",
                                                 with: "      8: {name: Mine, action: {run: \"true\"}}\n      5: {name: Next")
        let (rebase, report) = try HostRulesRebaseTests.save(&host, mine, generation: 3)
        try #require(!rebase.dropped.isEmpty)
        let actions = host.rebaseReported(profile: "default", file: "default.yaml", rebase, revision: 7, by: R.deckctl,
                                          log: "reloaded the profiles")
        #expect(actions == [
            .perform(.event(.reload(profile: "default", revision: 7, problems: [], dropped: report.events, by: R.deckctl))),
            .log(.info, "reloaded the profiles; " + report.summary),
        ] + report.sentences.map { .note($0, level: .warning) })
        #expect(!report.sentences.isEmpty && !report.events.isEmpty)
    }
}
