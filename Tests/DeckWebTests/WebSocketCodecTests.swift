import Foundation
import Testing
@testable import DeckWeb

/// The WebSocket frame layer without a socket (WEB.md §4). The inputs are the
/// fuzz target's findings (Fuzz/Crashes/websocket, docs/reliability.md).
@Suite("WebSocket codec")
struct WebSocketCodecTests {
    /// A client's frame: masked with a zero key, so the payload reads as it is.
    private static func frame(_ opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 126)
        return [0x80 | opcode, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload
    }

    private static let hello = Array(#"{"type":"hello","protocol":9,"name":"Web phone"}"#.utf8)

    /// Feeds `pieces` as reads; returns the messages, the end and the close code written.
    /// A message over the limit is closed with 1009 by the host, as `WebSocketFraming.finish` does.
    private static func run(_ pieces: [[UInt8]], limit: Int = 1 << 20) throws
        -> (messages: [String], end: WebSocketCodec.End?, closeCode: Int?) {
        let codec = try WebSocketCodec(maxMessageBytes: limit)
        var messages: [String] = []
        var written: [UInt8] = []
        for piece in pieces where codec.end == nil {
            messages += piece.withUnsafeBufferPointer { codec.receive($0) }.map { String(decoding: $0, as: UTF8.self) }
            written += codec.takeOutput()
        }
        if codec.end == .tooLarge {
            codec.close(code: 1009)
            written += codec.takeOutput()
        }
        // The last frame written: a close (opcode 8) with its code.
        let close = written.count >= 4 && written[written.count - 4] == 0x88 && written[written.count - 3] == 2
        let code = close ? Int(written[written.count - 2]) << 8 | Int(written[written.count - 1]) : nil
        return (messages, codec.end, code)
    }

    @Test func aMessageBeforeAViolationReachesTheHostHoweverTheReadsAreCut() throws {
        let text = Self.frame(0x1, Self.hello)
        let binary = Self.frame(0x2, [0, 1, 2])
        let together = try Self.run([text + binary])
        let apart = try Self.run([text, binary])
        #expect(apart.messages == [String(decoding: Self.hello, as: UTF8.self)])
        #expect(together.messages == apart.messages)
        #expect(together.closeCode == 1003 && apart.closeCode == 1003)
    }

    @Test func invalidUTF8IsAViolationWith1007OnTheWireAndInTheEnd() throws {
        let result = try Self.run([Self.frame(0x1, Array(#"{"name":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))])
        #expect(result.messages.isEmpty)
        #expect(result.closeCode == 1007)
        guard case .violation(let code, let why)? = result.end else {
            Issue.record("no violation: \(String(describing: result.end))")
            return
        }
        #expect(code == 1007)
        #expect(why.contains("UTF-8"))
    }

    /// An audit's finding: 10,000 empty pings per read held every other client.
    @Test func aFloodOfFramesThatBringNothingIsClosedWith1008() throws {
        let pings = (0..<64).flatMap { _ in Self.frame(0x9, []) }
        let text = Self.frame(0x1, Self.hello)
        let withinTheBurst = try Self.run([pings + text])
        #expect(withinTheBurst.end == nil && withinTheBurst.messages.count == 1, "64 at once are allowed: \(withinTheBurst)")
        // An empty text frame that does not end its message (FIN clear) brings nothing either.
        for extra in [Self.frame(0x9, []), Self.frame(0xA, []), [0x01, 0x80, 0, 0, 0, 0]] {
            let flood = try Self.run([pings + extra + text])
            #expect(flood.closeCode == 1008, "the 65th (first byte \(extra[0])) ends it: \(flood)")
            #expect(flood.messages.isEmpty, "nothing after it is read")
            guard case .violation(1008, let why)? = flood.end else {
                Issue.record("no 1008 violation: \(String(describing: flood.end))")
                continue
            }
            #expect(why.contains("pings, pongs or empty frames"))
        }
    }

    @Test func emptyMessagesAreMessagesNotFramesThatBringNothing() throws {
        // 100 empty final text frames: each is a message (the host refuses an empty line), counted as messages are.
        let empties = (0..<100).flatMap { _ in Self.frame(0x1, []) }
        let result = try Self.run([empties])
        #expect(result.end == nil && result.messages.count == 100, "\(result.end.map { "\($0)" } ?? "") \(result.messages.count)")
    }

    @Test func theBudgetOfFramesThatBringNothingRefillsWithTime() throws {
        var clock = ContinuousClock.now
        let codec = try WebSocketCodec(maxMessageBytes: 1 << 20, clock: { clock })
        let pings = (0..<64).flatMap { _ in Self.frame(0x9, []) }
        _ = pings.withUnsafeBufferPointer { codec.receive($0) }
        #expect(codec.end == nil)
        clock += .seconds(1)  // 16 more
        let more = (0..<16).flatMap { _ in Self.frame(0xA, []) }
        _ = more.withUnsafeBufferPointer { codec.receive($0) }
        #expect(codec.end == nil, "refilled at 16 a second")
        _ = Self.frame(0x9, []).withUnsafeBufferPointer { codec.receive($0) }
        guard case .violation(1008, _)? = codec.end else {
            Issue.record("the 17th within that second is over: \(String(describing: codec.end))")
            return
        }
    }

    @Test func aClientsCloseIsAnsweredAndEndsTheConversation() throws {
        let result = try Self.run([Self.frame(0x1, Self.hello) + Self.frame(0x8, [0x03, 0xE8])])
        #expect(result.messages.count == 1)
        #expect(result.end == .peerClosed)
        #expect(result.closeCode == 1000)
    }

    /// Nothing after the frame that ends the conversation is read, even in the same read: wslay
    /// went on parsing the bytes it had buffered, refused the bad frame after the oversized one and
    /// closed with 1002 before the host could close with 1009 (one byte at a time: 1009).
    @Test(arguments: [
        (0x1 as UInt8, 1009),  // over the limit
        (0x2, 1003),  // binary
    ])
    func whatEndsTheConversationDecidesItsCloseCodeWhateverFollows(opcode: UInt8, code: Int) throws {
        let ending = opcode == 0x1 ? Self.frame(0x1, Array(repeating: 0x61, count: 100)) : Self.frame(0x2, [0, 1])
        let badFrame: [UInt8] = [0xF2, 0x80, 0, 0, 0, 0]  // reserved bits set
        let together = try Self.run([ending + badFrame], limit: 50)
        let apart = try Self.run([ending, badFrame], limit: 50)
        #expect(together.closeCode == code)
        #expect(apart.closeCode == code)
        #expect(together.end == apart.end)
    }

    /// wslay checks a text frame's first bytes for UTF-8 in the same step as its header: an
    /// oversized message with a bad byte early was closed 1007 by wslay when it came in one read,
    /// 1009 by the host when cut after the header. The host's `tooLarge` line goes out before 1009.
    @Test func aMessageOverTheLimitIsClosed1009WhateverItsFirstBytesAre() throws {
        let oversized = Self.frame(0x1, Array(#"{"type"#.utf8) + [0x80] + Array(repeating: 0x61, count: 60))
        let together = try Self.run([oversized], limit: 50)
        let apart = try Self.run([Array(oversized.prefix(6)), Array(oversized.dropFirst(6))], limit: 50)
        #expect(together.end == .tooLarge && apart.end == .tooLarge)
        #expect(together.closeCode == 1009)
        #expect(apart.closeCode == 1009)
        let codec = try WebSocketCodec(maxMessageBytes: 50)
        _ = oversized.withUnsafeBufferPointer { codec.receive($0) }
        _ = codec.takeOutput()
        Array(#"{"type":"error","code":"tooLarge"}"#.utf8).withUnsafeBytes { codec.send(text: $0) }
        codec.close(code: 1009)
        let written = codec.takeOutput()
        #expect(written.first == 0x81 && written.suffix(4) == [0x88, 2, 0x03, 0xF1])  // the line, then the close
    }

    /// The first message (the `hello`) has its own, lower limit, known from
    /// its header; every later one the usual limit.
    @Test func theFirstMessageHasItsOwnLimit() throws {
        let long = Self.frame(0x1, Array(repeating: 0x61, count: 80))
        let first = try WebSocketCodec(maxMessageBytes: 100, maxFirstMessageBytes: 60)
        _ = long.withUnsafeBufferPointer { first.receive($0) }
        #expect(first.end == .tooLarge)
        let later = try WebSocketCodec(maxMessageBytes: 100, maxFirstMessageBytes: 60)
        let messages = (Self.frame(0x1, Self.hello) + long).withUnsafeBufferPointer { later.receive($0) }
        #expect(messages.count == 2 && messages[1].count == 80 && later.end == nil)
    }

    /// A header may claim any length: wslay closed one over 2 GiB with its own 1009 before the
    /// codec saw it (recorded as a 1002 violation), and allocated the payload of any shorter one.
    @Test(arguments: [UInt64(3) << 30, UInt64(1) << 31 - 1, UInt64(1) << 62])
    func aHeaderClaimingAHugeLengthIsAMessageOverTheLimit(length: UInt64) throws {
        let header: [UInt8] = [0x81, 0xFF] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) } + [0, 0, 0, 0]
        let result = try Self.run([header + Array("{}".utf8)], limit: 1 << 20)
        #expect(result.end == .tooLarge)
        #expect(result.closeCode == 1009)
    }

    /// wslay checks a close reason's UTF-8 one chunk at a time from each chunk's third byte: read
    /// in pieces, a reason that is not UTF-8 was let through (the client's close taken as one) or
    /// another check came first. Each control frame now reaches wslay whole, however it was cut.
    @Test(arguments: [
        [0x03, 0xE8, 0x62, 0xC3, 0x28],  // 1000, then a reason that is not UTF-8
        [0xFD, 0x17, 0x9D, 0x86, 0x9B],  // a code no one may send, and such a reason
    ] as [[UInt8]])
    func aCloseFrameIsCheckedTheSameHoweverItIsCut(payload: [UInt8]) throws {
        let close = Self.frame(0x8, payload)
        let whole = try Self.run([close])
        let bytewise = try Self.run(close.map { [$0] })
        #expect(whole.end == bytewise.end)
        #expect(whole.closeCode == 1007 && bytewise.closeCode == 1007)
    }
}
