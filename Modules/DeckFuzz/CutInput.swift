/// An input for the targets whose decoders take a stream (`http-head`,
/// `websocket`): the first byte's low three bits say how many cut points
/// follow (0–7, one byte each, scaled to the rest's length); its other five
/// bits are the target's to use; the rest is the stream. The fuzzer mutates
/// the cuts with the stream, so each input is also tried in its own pieces.
struct CutInput {
    /// The first byte's five high bits.
    let options: UInt8
    /// The bytes of the stream.
    let stream: [UInt8]
    /// Where the stream is cut: sorted, each inside it (1..<count), no two alike.
    let cuts: [Int]

    /// Streams no longer than this are also fed one byte at a time (the
    /// finest cutting; longer ones would make each execution slow).
    static let bytewiseUpTo = 512

    init(_ bytes: [UInt8]) {
        guard let first = bytes.first else {
            options = 0
            stream = []
            cuts = []
            return
        }
        options = first >> 3
        let chosen = bytes.dropFirst().prefix(Int(first & 0x07))
        let stream = Array(bytes.dropFirst(1 + chosen.count))
        self.stream = stream
        cuts = Set(chosen.map { Int($0) * stream.count / 256 }).filter { $0 > 0 }.sorted()
    }

    /// The whole stream as one piece.
    var whole: [ArraySlice<UInt8>] { [stream[...]] }

    /// The stream cut at ``cuts``.
    var pieces: [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        for cut in cuts + [stream.count] {
            pieces.append(stream[start..<cut])
            start = cut
        }
        return pieces
    }

    /// One byte a piece, or nil for a stream longer than ``bytewiseUpTo``.
    var bytewise: [ArraySlice<UInt8>]? {
        stream.count <= Self.bytewiseUpTo ? stream.indices.map { stream[$0...$0] } : nil
    }
}
