import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Synchronization
import Testing

@Suite("kill -9 during 4-device edits, through the journal")
struct JournalKillTests {
    /// Kills in make test; `DECK_HOST_KILLS=300` for the full run (docs/snapshots.md).
    static let rounds = ProcessInfo.processInfo.environment["DECK_HOST_KILLS"].flatMap(Int.init) ?? 12

    /// What one device sent and had acknowledged, by counter (its slot's button is `dD nC`).
    struct Progress: Sendable {
        var sent = 0
        var acknowledged = 0
        var revision = 0
    }

    @Test func noAcknowledgedEditIsLostNoneIsDoubledAndTheRevisionNeverGoesBack() throws {
        let host = try startedHost()
        let progress = Mutex([Progress](repeating: Progress(), count: 4))
        var random = SeededGenerator(seed: 0x4DE7_1CE5)
        var lastRevision = 0
        var kills = 0
        for round in 0..<Self.rounds {
            if round > 0 { try host.start() }
            let devices = try (0..<4).map { try host.device("editor \($0)") }
            let done = devices.enumerated().map { index, device in
                let finished = DispatchSemaphore(value: 0)
                Thread {
                    defer { finished.signal() }
                    while true {
                        let counter = progress.withLock { $0[index].sent + 1 }
                        progress.withLock { $0[index].sent = counter }
                        let button = DeckButton(name: "d\(index) n\(counter)", action: .open("~"))
                        guard let reply = try? device.request(.setButton(page: 0, index: index, button: button), timeout: .seconds(5)),
                              case .ok(_, let revision?) = reply else { return }
                        progress.withLock {
                            $0[index].acknowledged = counter
                            $0[index].revision = max($0[index].revision, revision)
                        }
                    }
                }.start()
                return finished
            }
            // A random moment of the edits, so kills land in reads, appends, flushes and replies alike.
            Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.06, using: &random))
            try host.kill9()
            kills += 1
            for finished in done { finished.wait() }

            try host.start()
            let check = try host.device("checker")
            let welcome = try #require(check.welcome)
            let seen = progress.withLock { $0 }
            #expect(welcome.revision >= lastRevision, "round \(round): the revision went back")
            #expect(welcome.revision >= seen.map(\.revision).max() ?? 0, "round \(round): an acknowledged revision is lost")
            for (index, device) in seen.enumerated() {
                let name = welcome.layout.button(page: 0, index: index)?.name ?? ""
                let counter = Int(name.split(separator: "n").last ?? "") ?? 0
                #expect(name.hasPrefix("d\(index) n") || device.acknowledged == 0, "round \(round): slot \(index) holds \(name)")
                // Acknowledged edits are there; only an edit sent and not yet answered may be there too.
                #expect(counter >= device.acknowledged && counter <= device.sent,
                        "round \(round): device \(index) acknowledged \(device.acknowledged), sent \(device.sent), found \(counter)")
            }
            lastRevision = welcome.revision
            // The next round's devices go on from what this start holds.
            progress.withLock { all in
                for index in all.indices {
                    let name = welcome.layout.button(page: 0, index: index)?.name ?? ""
                    let found = Int(name.split(separator: "n").last ?? "") ?? 0
                    all[index].sent = max(all[index].sent, found)
                    all[index].acknowledged = found
                }
            }
            try host.kill9()
        }
        #expect(kills == Self.rounds)
        let total = progress.withLock { $0.map(\.acknowledged).reduce(0, +) }
        #expect(total >= Self.rounds, "too few edits acknowledged to mean anything: \(total)")
    }
}
