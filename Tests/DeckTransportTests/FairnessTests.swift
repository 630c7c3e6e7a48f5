import Dispatch
import Foundation
import Testing
@testable import DeckTransport

/// 10 clients that sent pings as fast as they could (and never read) pushed a
/// healthy client's ping to 0.4–1.5 s: deckd read up to 256 KiB (~10k lines)
/// from one client per loop turn and answered all of it before anyone else.
/// The work per connection per turn is bounded in lines.
@Suite("Fair reading across connections")
struct FairnessTests {
    @Test func aQuietClientsLineIsNotQueuedBehindAFloodersWholeBuffer() throws {
        let server = try TestServer.start(behavior: { _, _, _ in })
        defer { server.stop() }
        let flooder = try server.client()
        let quiet = try server.client()
        #expect(server.log.wait { $0.filter { if case .opened = $0 { true } else { false } }.count == 2 })
        let ids = server.log.openedIDs

        // Hold the loop while both write, so one turn finds both readable,
        // the flooder first (it became readable first).
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        #expect(server.loop.execute { holding.signal(); release.wait() })
        holding.wait()
        let flood = (0..<25_000).map { String(format: "f%05d\n", $0) }.joined()
        try flooder.write(Array(flood.utf8))
        try quiet.send("quiet")
        release.signal()

        #expect(server.log.wait { $0.contains(.line(ids[1], "quiet")) || $0.contains(.line(ids[0], "quiet")) })
        let lines = server.log.all.compactMap { event -> (ConnectionID, String)? in
            if case let .line(id, text) = event { (id, text) } else { nil }
        }
        let quietAt = try #require(lines.firstIndex { $0.1 == "quiet" })
        let floodBefore = lines[..<quietAt].count
        #expect(floodBefore <= 2 * ConnectionReadGate.linesPerTurn,
                "\(floodBefore) of the flooder's lines were handled before the quiet client's one")
        // And the flood is still all delivered, in order.
        #expect(server.log.wait { events in events.filter { if case .line = $0 { true } else { false } }.count == 25_001 })
        let flooded = server.log.all.compactMap { event -> String? in
            if case let .line(_, text) = event, text != "quiet" { text } else { nil }
        }
        #expect(flooded == (0..<25_000).map { String(format: "f%05d", $0) })
    }
}
