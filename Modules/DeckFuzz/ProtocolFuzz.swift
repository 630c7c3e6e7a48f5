import DeckModel
import DeckProtocol

/// Property: a line the host accepts encodes to a line that decodes to the same
/// message, and that line encodes to the same bytes again (decode → encode →
/// decode is stable); the same for a line the host sends a device. A refused
/// line's error encodes as an `error` reply that decodes back to that error.
enum ProtocolFuzz {
    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        switch Result(catching: { () throws(ProtocolError) in try ClientMessage.decode(bytes) }) {
        case .success(let message):
            let line = message.line()
            guard case .success(let again) = Result(catching: { () throws(ProtocolError) in try ClientMessage.decode(line) }) else {
                throw FuzzFinding("the host's own encoding of a client message does not decode: \(message)")
            }
            try require(again == message, "a client message changed through encode → decode: \(message) became \(again)")
            try require(again.line() == line, "a client message's encoding is not stable")
        case .failure(let error):
            try checkReply(to: error)
        }
        // The other entry points of the same decoder: the first line, and a line checked against rights.
        _ = try? ClientMessage.decodeHello(bytes)
        _ = try? ClientMessage.decode(bytes, access: ClientAccess(level: ProtocolLevel.current, isControl: true))
        _ = try? ClientMessage.decode(bytes, access: ClientAccess(level: ProtocolLevel.minimum, isControl: false))
        // A device refusing a host line is fine; it must not crash, and what it accepts must be stable.
        guard let message = try? HostMessage.decode(bytes) else { return }
        let line = message.line()
        guard let again = try? HostMessage.decode(line) else {
            throw FuzzFinding("the host's encoding of a host message does not decode: \(message)")
        }
        try require(again == message, "a host message changed through encode → decode: \(message) became \(again)")
        try require(again.line() == line, "a host message's encoding is not stable")
    }

    /// The reply the host sends for a refused line must itself be a valid line.
    private static func checkReply(to error: ProtocolError) throws(FuzzFinding) {
        try require(!error.message.isEmpty, "a refusal (\(error.code)) has no message")
        let reply = HostMessage.error(id: error.id, code: error.code, message: error.message)
        guard let decoded = try? HostMessage.decode(reply.line()) else {
            throw FuzzFinding("the error reply to a refused line does not decode: \(reply)")
        }
        try require(decoded == reply, "the error reply changed through encode → decode: \(reply) became \(decoded)")
    }
}
