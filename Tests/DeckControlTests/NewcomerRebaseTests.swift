import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// Issue 17 §1, end to end as the newcomer ran it and as docs/profiles.md
/// shows it: `deckctl set 0 8 --name Persist …`, then an unrelated hand save
/// of default.yaml, and `deckctl show` still has Persist.
@Suite("The newcomer's sequence with deckctl")
struct NewcomerRebaseTests {
    @Test func aDeckctlSetSurvivesAnUnrelatedHandSave() throws {
        let deck = try DeckctlAgainstHost()
        let set = try deck.run("set", "0", "8", "--name", "Persist", "--run", "touch /tmp/persist")
        #expect(set.status == 0, "\(set.err)")
        let watch = try deck.host.controlClient()
        _ = try watch.request(.subscribe)
        try deck.host.write("default.yaml", HostFiles.desk.replacingOccurrences(of: "name: Build", with: "name: Compile"))
        _ = try watch.next(timeout: .seconds(10)) { if case .event(.reload(_, _?, [], _, _)) = $0 { true } else { false } }
        let show = try deck.run("show", "0")
        #expect(show.outLines.contains { $0.contains("│ Persist") }, "\(show.outLines)")
        #expect(show.outLines.contains { $0.contains("Compile") }, "\(show.outLines)")
        #expect(deck.host.waitForLog("kept 1 device edit made since the file was last loaded"))
    }
}
