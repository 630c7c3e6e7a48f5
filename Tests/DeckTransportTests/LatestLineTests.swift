import Foundation
import Testing
@testable import DeckTransport

/// 10 clients flooding refused edits made one full-layout broadcast each, and
/// a healthy client that read all the time was dropped as "did not read its
/// output" within 0.4 s. PROTOCOL.md §5 asks for the current layout, not
/// every one: a layout line not yet written is replaced by the newer one,
/// unless a line was sent after it.
@Suite("A newer layout replaces one not yet written")
struct LatestLineTests {
    /// On `burst`: 500 layouts, a reply, 500 more layouts, all in one turn.
    static let burst: LineBehavior = { connection, line, _ in
        guard String(decoding: line, as: UTF8.self) == "burst" else { return }
        for number in 0..<1_000 {
            if number == 500, let reply = try? OutboundLine("reply") { connection.send(reply) }
            if let layout = try? OutboundLine("layout \(number)") { connection.sendLatest(layout) }
        }
        if let done = try? OutboundLine("done") { connection.send(done) }
    }

    @Test func onlyTheLatestLayoutWaitsAndOtherLinesKeepTheirOrder() throws {
        let server = try TestServer.start(behavior: Self.burst)
        defer { server.stop() }
        let client = try server.client()
        try client.send("burst")
        var received: [String] = []
        while received.last != "done" { received.append(try client.readText()) }
        // The first went out at once; the layout current when the reply was sent stays before it
        // (PROTOCOL.md §5); the others were replaced by the newer, and the last follows the reply.
        #expect(received == ["layout 0", "layout 499", "reply", "layout 999", "done"])
    }

    @Test func aLayoutSentWhenNothingWaitsGoesOutAsItIs() throws {
        let server = try TestServer.start(behavior: { connection, line, _ in
            if let layout = try? OutboundLine("layout " + String(decoding: line, as: UTF8.self)) { connection.sendLatest(layout) }
        })
        defer { server.stop() }
        let client = try server.client()
        for number in 0..<5 { #expect(try client.roundTrip("\(number)") == "layout \(number)") }
    }
}
