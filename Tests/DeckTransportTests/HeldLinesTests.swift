import Testing
@testable import DeckTransport

/// The lines held behind a replaceable one, without a connection.
@Suite struct HeldLinesTests {
    private func line(_ text: String) throws -> OutboundLine { try OutboundLine(text) }

    @Test func aNewerReplaceableLineTakesTheOlderOnesPlaceWhenNothingFollowsIt() throws {
        var held = HeldLines()
        #expect(held.isEmpty && held.bytes == 0)
        held.append(try line("pong"), replaceable: false)
        held.append(try line("layout 1"), replaceable: true)
        held.append(try line("layout 2"), replaceable: true)
        held.append(try line("event"), replaceable: false)
        #expect(held.bytes == "pong\n".utf8.count + "layout 2\n".utf8.count + "event\n".utf8.count)
        let texts = held.take().map { String(decoding: Array($0.bytes), as: UTF8.self) }
        #expect(texts == ["pong\n", "layout 2\n", "event\n"], "order kept, the older layout dropped")
        #expect(held.isEmpty && held.bytes == 0)
    }

    /// PROTOCOL.md §5: a client that sends several edits at once gets each
    /// reply and then a layout; a layout with a reply after it stays.
    @Test func aReplaceableLineWithALineAfterItStays() throws {
        var held = HeldLines()
        for text in ["layout 1", "ok 2", "layout 2", "ok 3", "layout 3"] {
            held.append(try line(text), replaceable: text.hasPrefix("layout"))
        }
        held.append(try line("layout 4"), replaceable: true)
        let texts = held.take().map { String(decoding: Array($0.bytes), as: UTF8.self) }
        #expect(texts == ["layout 1\n", "ok 2\n", "layout 2\n", "ok 3\n", "layout 4\n"])
    }

    @Test func plainLinesAreNeverReplaced() throws {
        var held = HeldLines()
        held.append(try line("a"), replaceable: false)
        held.append(try line("b"), replaceable: false)
        #expect(held.take().count == 2)
    }
}
