import DeckModel
import DeckSnapshots
import Testing

/// docs/snapshots.md, "Inspecting by hand": a store is its folder's owner and
/// keeps its own `keep`; a tool looking at a stopped host's history opens it
/// with no limit and finds every generation the host kept, every file as it was.
@Suite("A tool that looks at a stopped host's history")
struct OnlookerTests {
    @Test(arguments: [false, true])
    func aStoreOpenedWithoutALimitKeepsEveryGenerationTheHostKept(journaled: Bool) throws {
        let sandbox = try Sandbox("onlooker")
        let journal = journaled ? JournalSettings(recordsPerSegment: 50) : nil
        try {
            let host = try sandbox.open(keep: 200, journal: journal)  // deckd --keep 200
            try fill(host, count: 120)
            host.finishDeletions()
        }()
        let files = sandbox.files()
        let onlooker = try sandbox.open(keep: .max)
        #expect(try onlooker.newest(profile: "default").snapshot?.info.generation == 120)
        #expect(try onlooker.list(profile: "default").snapshots.count == 120)
        onlooker.finishDeletions()
        #expect(sandbox.files() == files, "nothing deleted, renamed or made")
    }

    @Test func aStoreOpenedWithTheDefaultKeepTrimsTheHistoryToIt() throws {
        let sandbox = try Sandbox("onlooker")
        try {
            let host = try sandbox.open(keep: 200)
            try fill(host, count: 120)
            host.finishDeletions()
        }()
        let tool = try sandbox.open()  // keep 100: the hazard the docs warn of
        #expect(try tool.newest(profile: "default").snapshot?.info.generation == 120)
        tool.finishDeletions()
        #expect(try tool.list(profile: "default").snapshots.count == SnapshotStore.defaultKeep)
        #expect(sandbox.files().count == SnapshotStore.defaultKeep)
    }
}
