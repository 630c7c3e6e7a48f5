#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeckWeb

/// The WebSocket frame layer (WEB.md §4, RFC 6455) through `WebSocketCodec`,
/// fed the bytes a client sends after the upgrade (a ``CutInput``; option
/// bits 0–1 choose the message limit, bit 2 a first-message limit of half
/// of it, as deckd's `hello` has). Properties:
///
/// - the messages the host gets, the end and the bytes written back are the
///   same fed whole, cut where the input says, and one byte at a time (but
///   for pongs once the conversation ended: ``Outcome/matches(_:)``);
/// - every message is UTF-8 and within the limit, the first within its own;
/// - an end that is a violation closes with 1002, 1003, 1007 or 1008 (frames
///   that bring nothing, past their budget; the clock stands still, so cuts
///   cannot change the count), and the last
///   frame written is a close with that code; a client's close is answered
///   with a close (wslay echoes its code, if any); a message over the limit closes with 1009 once the host
///   closes; nothing written follows a close;
/// - each message, framed again as a client would (masked, in fragments,
///   a ping between them — chosen by the input), decodes to itself alone, and
///   the host's own frame of it is one unmasked text frame holding it.
enum WebSocketFuzz {
    /// The codec's clock: standing still, so feeding whole, cut or byte by byte counts frames alike.
    static let stillClock = ContinuousClock.now

    /// `--max-message` for the input's option bits 0–1: small ones reach the limit with short inputs.
    static let limits = [16, 125, 4096, 1 << 20]

    /// What one client's bytes come to.
    struct Outcome: Equatable {
        var messages: [Data] = []
        var end: WebSocketCodec.End?
        var written: [UInt8] = []

        /// Equal, but for pongs once there is an end: a pong queued in the read that ended the
        /// conversation goes unsent (wslay sends no other control frame once a close is queued),
        /// one sent after an earlier read has gone, and RFC 6455 §7.1.7 asks nothing more of a
        /// failed connection than its close.
        func matches(_ other: Outcome) -> Bool {
            guard end != nil else { return self == other }
            let withoutPongs = { (bytes: [UInt8]) in ServerFrame.parse(bytes)?.filter { $0.opcode != 0xA }.map(\.bytes) }
            return messages == other.messages && end == other.end && withoutPongs(written) == withoutPongs(other.written)
        }
    }

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        let input = CutInput(bytes)
        let limit = limits[Int(input.options & 3)]
        let first = input.options & 4 == 0 ? nil : limit / 2
        let whole = try outcome(of: input.whole, limit: limit, first: first)
        let cut = try outcome(of: input.pieces, limit: limit, first: first)
        try require(cut.matches(whole), "cut at \(input.cuts), the stream decodes to \(cut), whole to \(whole)")
        if let bytewise = input.bytewise {
            let single = try outcome(of: bytewise, limit: limit, first: first)
            try require(single.matches(whole), "one byte at a time, the stream decodes to \(single), whole to \(whole)")
        }
        for (index, message) in whole.messages.enumerated() {
            try require(String(validating: message, as: UTF8.self) != nil, "a text message that is not UTF-8 was delivered")
            let bound = index == 0 ? first ?? limit : limit
            try require(message.count <= bound, "message \(index) of \(message.count) bytes passed the limit of \(bound)")
        }
        try checkWritten(whole)
        var choices = BitReader(bytes.reversed())
        for message in whole.messages { try checkReframed(message, limit: limit, choices: &choices) }
    }

    /// The stream fed in `pieces` to one codec, as `WebSocketFraming` feeds it:
    /// nothing after the end; for ``WebSocketCodec/End/tooLarge`` the host then closes with 1009.
    static func outcome(of pieces: [ArraySlice<UInt8>], limit: Int, first: Int? = nil) throws(FuzzFinding) -> Outcome {
        let codec: WebSocketCodec
        do throws(WebError) {
            codec = try WebSocketCodec(maxMessageBytes: limit, maxFirstMessageBytes: first, clock: { stillClock })
        } catch {
            throw FuzzFinding("no WebSocket codec: \(error)")
        }
        var outcome = Outcome()
        for piece in pieces where codec.end == nil {
            outcome.messages += piece.withUnsafeBufferPointer { codec.receive($0) }
            outcome.written += codec.takeOutput()
        }
        outcome.end = codec.end
        if codec.end == .tooLarge {
            codec.close(code: 1009)
            outcome.written += codec.takeOutput()
        }
        return outcome
    }

    private static func checkWritten(_ outcome: Outcome) throws(FuzzFinding) {
        guard let frames = ServerFrame.parse(outcome.written) else {
            throw FuzzFinding("the bytes written back are not whole unmasked frames: \(outcome.written)")
        }
        let closes = frames.indices.filter { frames[$0].opcode == 0x8 }
        try require(closes.count <= 1 && (closes.first.map { $0 == frames.count - 1 } ?? true),
                    "frames were written after a close: \(frames)")
        let closeCode = closes.first.map { frames[$0].closeCode }
        switch outcome.end {
        case .violation(let code, let why):
            try require([1002, 1003, 1007, 1008].contains(code), "a violation (\(why)) closes with \(code)")
            try require(closeCode == code, "a violation's close code is \(code), the close written \(String(describing: closeCode))")
        case .tooLarge:
            try require(closeCode == 1009, "a message over the limit is closed with \(String(describing: closeCode)), not 1009")
        case .peerClosed:
            try require(closes.count == 1, "a client's close was not answered")
        case nil:
            try require(closeCode == nil, "a close (\(String(describing: closeCode))) was written without an end")
        }
    }

    private static func checkReframed(_ message: Data, limit: Int, choices: inout BitReader) throws(FuzzFinding) {
        let payload = Array(message)
        var stream: [UInt8] = []
        let fragments = 1 + choices.number(below: 4)
        var start = 0
        for index in 0..<fragments {
            let end = index == fragments - 1 ? payload.count : min(payload.count, start + payload.count / fragments)
            let mask = (0..<4).map { _ in UInt8(choices.number(below: 8) * 36) }
            stream += ClientFrame.bytes(opcode: index == 0 ? 0x1 : 0x0, fin: index == fragments - 1,
                                        payload: payload[start..<end], mask: mask)
            if index < fragments - 1, choices.next() {
                stream += ClientFrame.bytes(opcode: 0x9, fin: true, payload: [0x70][...], mask: mask)
            }
            start = end
        }
        let again = try outcome(of: [stream[...]], limit: limit)
        try require(again.messages == [message] && again.end == nil,
                    "a message framed again in \(fragments) fragments decodes to \(again)")
        // The host's frame of it.
        let codec: WebSocketCodec
        do throws(WebError) {
            codec = try WebSocketCodec(maxMessageBytes: limit, clock: { stillClock })
        } catch {
            throw FuzzFinding("no WebSocket codec: \(error)")
        }
        payload.withUnsafeBytes { codec.send(text: $0) }
        let frames = ServerFrame.parse(codec.takeOutput())
        try require(frames?.count == 1 && frames?.first?.opcode == 0x1 && frames?.first?.fin == true
                        && frames?.first?.payload == payload,
                    "the host's frame of a message is \(String(describing: frames))")
    }
}

/// A frame as a client writes it (RFC 6455 §5.2): masked.
enum ClientFrame {
    static func bytes(opcode: UInt8, fin: Bool, payload: ArraySlice<UInt8>, mask: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let count = payload.count
        if count < 126 {
            bytes.append(0x80 | UInt8(count))
        } else if count < 65536 {
            bytes += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: count >> ($0 * 8)) }
        }
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }
}

/// A frame the host wrote, read back apart from wslay.
struct ServerFrame: CustomStringConvertible {
    var fin: Bool
    var opcode: UInt8
    var payload: [UInt8]

    /// A close frame's status code (nil without one).
    var closeCode: UInt16? {
        payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
    }

    var description: String { "(fin \(fin), opcode \(opcode), \(payload.count) bytes)" }

    /// What is compared of it.
    var bytes: [UInt8] { [fin ? 1 : 0, opcode] + payload }

    /// The frames of `bytes`; nil unless they are whole unmasked frames with no reserved bits.
    static func parse(_ bytes: [UInt8]) -> [ServerFrame]? {
        var frames: [ServerFrame] = []
        var at = 0
        while at < bytes.count {
            guard at + 2 <= bytes.count, bytes[at] & 0x70 == 0, bytes[at + 1] & 0x80 == 0 else { return nil }
            var length = Int(bytes[at + 1] & 0x7F)
            var start = at + 2
            if length == 126 || length == 127 {
                let size = length == 126 ? 2 : 8
                guard start + size <= bytes.count else { return nil }
                length = bytes[start..<start + size].reduce(0) { $0 << 8 | Int($1) }
                start += size
            }
            guard length >= 0, length <= bytes.count - start else { return nil }
            frames.append(ServerFrame(fin: bytes[at] & 0x80 != 0, opcode: bytes[at] & 0x0F,
                                      payload: Array(bytes[start..<start + length])))
            at = start + length
        }
        return frames
    }
}
