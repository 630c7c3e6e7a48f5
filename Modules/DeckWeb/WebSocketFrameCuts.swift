/// Where the client's frames begin and end, so that ``WebSocketCodec`` hands
/// wslay each control frame in one read and no header in pieces.
///
/// Forced by wslay 1.1: it checks a close frame's reason for UTF-8 one chunk
/// at a time, skipping the first two bytes of every chunk (the status code's
/// place), so a close read in pieces was checked differently from one read
/// whole (1007 or not, found by the fuzz target `websocket`).
struct WebSocketFrameCuts {
    /// RFC 6455 §5.5: a control frame's payload is at most 125 bytes.
    static let maxControlPayload: UInt64 = 125

    /// Payload bytes of the data frame the stream is inside, still to come.
    private var payloadLeft: UInt64 = 0

    /// How much of `stream` (which starts where the part given before ended)
    /// may go to wslay now, and the offsets in it where a read must end: the
    /// start and the end of each control frame. The rest (an unfinished
    /// header or control frame, at most 139 bytes) waits for more bytes.
    mutating func cut(_ stream: UnsafeBufferPointer<UInt8>) -> (deliverable: Int, cuts: [Int]) {
        var at = 0
        var cuts: [Int] = []
        while at < stream.count {
            if payloadLeft > 0 {
                let count = Int(min(payloadLeft, UInt64(stream.count - at)))
                at += count
                payloadLeft -= UInt64(count)
                continue
            }
            guard let (headerBytes, payloadBytes, control) = Self.header(of: stream, at: at) else { break }
            if control && payloadBytes <= Self.maxControlPayload {
                let end = at + headerBytes + Int(payloadBytes)
                guard end <= stream.count else { break }
                cuts += [at, end]
                at = end
            } else {
                // A data frame's payload may come in any pieces (a control frame claiming more is refused at its header).
                at += headerBytes
                payloadLeft = payloadBytes
            }
        }
        return (at, cuts)
    }

    /// The header at `at`: its size, its payload's claimed length and whether it is a control frame; nil while unfinished.
    private static func header(of stream: UnsafeBufferPointer<UInt8>, at: Int)
        -> (headerBytes: Int, payloadBytes: UInt64, control: Bool)? {
        guard stream.count - at >= 2 else { return nil }
        let lengthField = stream[at + 1] & 0x7F
        let extended = lengthField == 126 ? 2 : lengthField == 127 ? 8 : 0
        let headerBytes = 2 + extended + (stream[at + 1] & 0x80 != 0 ? 4 : 0)
        guard stream.count - at >= headerBytes else { return nil }
        let payloadBytes = extended == 0
            ? UInt64(lengthField)
            : stream[(at + 2)..<(at + 2 + extended)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (headerBytes, payloadBytes, stream[at] & 0x08 != 0)
    }
}
