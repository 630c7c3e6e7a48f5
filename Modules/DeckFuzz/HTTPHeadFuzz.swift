import DeckWeb

/// The request heads of the web listener (WEB.md §2), through
/// `HTTPHeadDecoder` as `HTTPFraming` feeds it (a ``CutInput``; option bit 0:
/// the handshake is that of a TLS listener). Properties:
///
/// - the verdicts are the same fed whole, cut where the input says, and one
///   byte at a time, and so is where each accepted head ends; "more,
///   please" leaves no byte untaken;
/// - an accepted head, written again (`METHOD TARGET HTTP/x.y`, `name:value`
///   lines), decodes to the same request in as many bytes;
/// - a refused head is answered 400, 431 (WEB.md §2), 405 (a method other
///   than GET and HEAD that comes with a body, or that http_parser does not
///   know) or 505 (a major version other than 1), with a reason;
/// - an upgrade is answered by the WebSocket handshake with 101 and RFC
///   6455's accept key of its `Sec-WebSocket-Key`, or refused with 400, 403,
///   405 or 426 and a reason.
enum HTTPHeadFuzz {
    /// A verdict, and how many bytes of the stream it took since the one before
    /// (0 for a refusal: where http_parser stops in a refused head depends on
    /// the cuts, and the connection closes after it anyway).
    struct Step: Equatable {
        var verdict: HTTPHeadDecoder.Verdict
        var bytes: Int
    }

    static func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        let input = CutInput(bytes)
        let whole = try steps(input.whole)
        let cut = try steps(input.pieces)
        try require(cut == whole, "cut at \(input.cuts), the stream decodes to \(cut), whole to \(whole)")
        if let bytewise = input.bytewise {
            let single = try steps(bytewise)
            try require(single == whole, "one byte at a time, the stream decodes to \(single), whole to \(whole)")
        }
        let handshake = WebSocketHandshake(extraOrigins: [], secure: input.options & 1 == 1)
        for step in whole {
            switch step.verdict {
            case .needMore:
                break
            case let .refused(status, reason, why):
                try require([400, 405, 431, 505].contains(status), "a head is refused with \(status), not 400, 405, 431 or 505")
                try require(!reason.isEmpty && !why.isEmpty, "a refusal (\(status)) has no reason")
            case .request(let request):
                try checkRewritten(request, headBytes: step.bytes)
                if request.isUpgrade { try checkHandshake(handshake.answer(request), of: request) }
            }
        }
    }

    /// The verdicts of one connection's stream fed in `pieces`, up to where
    /// `HTTPFraming` stops reading: a refusal, an upgrade, or a request after
    /// whose response the connection closes. The stream's unfinished end is a
    /// last `needMore` with the bytes it took.
    static func steps(_ pieces: [ArraySlice<UInt8>]) throws(FuzzFinding) -> [Step] {
        let decoder = HTTPHeadDecoder()
        var steps: [Step] = []
        var pending = 0
        for piece in pieces {
            var rest = piece
            while !rest.isEmpty {
                let (verdict, used) = rest.withUnsafeBufferPointer { decoder.decode($0) }
                try require(used <= rest.count, "the decoder used \(used) of \(rest.count) bytes")
                rest = rest.dropFirst(used)
                pending += used
                switch verdict {
                case .needMore:
                    try require(rest.isEmpty, "the decoder asked for more and left \(rest.count) bytes untaken")
                case .refused:
                    steps.append(Step(verdict: verdict, bytes: 0))
                    return steps
                case .request(let request):
                    try require(used > 0, "a request was decoded out of no bytes")
                    steps.append(Step(verdict: verdict, bytes: pending))
                    pending = 0
                    if request.isUpgrade || !request.keepAlive { return steps }
                }
            }
        }
        if pending > 0 { steps.append(Step(verdict: .needMore, bytes: pending)) }
        return steps
    }

    /// The request as a head of its own, in the fewest bytes http_parser reads it from.
    static func rewritten(_ request: HTTPRequest) -> [UInt8] {
        var head = "\(request.method) \(request.target) HTTP/\(request.majorVersion).\(request.minorVersion)\r\n"
        for (name, value) in request.headers { head += "\(name):\(value)\r\n" }
        return Array((head + "\r\n").utf8)
    }

    private static func checkRewritten(_ request: HTTPRequest, headBytes: Int) throws(FuzzFinding) {
        let head = rewritten(request)
        let again = try steps([head[...]])
        // A head sent without a version (`GET /`, read as 0.9) is longer written with one: it may pass the limit.
        if head.count > headBytes, case .refused(431, _, _)? = again.first?.verdict { return }
        try require(again == [Step(verdict: .request(request), bytes: head.count)],
                    "a request written again decodes differently: \(request) became \(again)")
    }

    private static func checkHandshake(_ answer: WebSocketHandshake.Answer, of request: HTTPRequest) throws(FuzzFinding) {
        switch answer {
        case .accept(let key):
            let given = request.headers.first { $0.name.lowercased() == "sec-websocket-key" }?.value ?? ""
            let trimmed = String(given.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            try require(WebSocketHandshake.isValidKey(trimmed), "an upgrade with key '\(given)' was accepted")
            try require(key == WebSocketHandshake.acceptKey(for: trimmed) && key.utf8.count == 28,
                        "an upgrade's accept key '\(key)' is not RFC 6455's for '\(trimmed)'")
        case let .refuse(status, reason):
            try require([400, 403, 405, 426].contains(status), "an upgrade is refused with \(status)")
            try require(!reason.isEmpty, "an upgrade is refused (\(status)) without a reason")
        }
    }
}
