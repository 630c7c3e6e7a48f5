internal import CHTTPParser

/// Request heads out of a byte stream (WEB.md §2), by http_parser, without a
/// socket: ``HTTPFraming`` feeds it what a connection reads and answers each
/// verdict; the fuzz target `http-head` feeds it arbitrary bytes. Bytes may
/// come in any pieces: the verdicts are the same however the stream is cut.
///
/// A class, not a value: http_parser's callbacks find their state through a pointer to it.
package final class HTTPHeadDecoder {
    /// What the bytes fed so far come to.
    package enum Verdict: Equatable, Sendable {
        /// Every byte was taken and no head is complete yet.
        case needMore
        /// A whole head. The bytes after it are the next head's (pipelining) —
        /// or, for an upgrade, the WebSocket's.
        case request(HTTPRequest)
        /// The head is refused: answer `status` with `reason` and close.
        /// `why` is for the log. Nothing more is decoded after a refusal.
        case refused(status: Int, reason: String, why: String)
    }

    /// WEB.md §2: a request head over 8 KiB gets 431.
    package static let maxHeadBytes: UInt32 = 8 * 1024

    /// http_parser's head limit is one global of the library; set once, before any parse.
    private static let headLimitSet: Void = { http_parser_set_max_header_size(maxHeadBytes) }()

    private var parser = http_parser()
    private var settings = http_parser_settings()
    // The head being read.
    private var url: [UInt8] = []
    private var fields: [(name: [UInt8], value: [UInt8])] = []
    private var inValue = false
    private var announcedBody = false
    private var complete = false
    private var refusal: Verdict?
    /// The bytes of the head being read that http_parser took so far.
    private var headBytes = 0
    /// The first bytes of the message being read, after the line ends
    /// http_parser skips before it (at most ``methodBytesSeen``): http_parser
    /// knows a fixed list of methods, so when it refuses one, these say
    /// whether it was a method at all.
    private var messageStart: [UInt8] = []
    /// A method http_parser does not know, being read up to its space (it
    /// may come in pieces); nil while http_parser reads.
    private var unknownMethod: [UInt8]?
    /// Enough for any method a client sends; a token this long is refused
    /// as no method (400), so the verdict always comes within these bytes,
    /// however the stream is cut.
    private static let methodBytesSeen = 32

    package init() {
        Self.headLimitSet
        http_parser_init(&parser, HTTP_REQUEST)
        http_parser_settings_init(&settings)
        settings.on_message_begin = { parser in
            HTTPHeadDecoder.of(parser).beginMessage()
            return 0
        }
        settings.on_url = { parser, data, length in
            HTTPHeadDecoder.of(parser).url.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        settings.on_header_field = { parser, data, length in
            HTTPHeadDecoder.of(parser).headerField(UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        settings.on_header_value = { parser, data, length in
            HTTPHeadDecoder.of(parser).headerValue(UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        settings.on_headers_complete = { parser in
            guard let parser else { return 0 }
            let chunked = parser.pointee.flags & UInt32(F_CHUNKED.rawValue) != 0
            let length = parser.pointee.content_length
            if chunked || (length > 0 && length != UInt64.max) {
                // A body on GET/HEAD is refused at once, without reading it.
                HTTPHeadDecoder.of(parser).announcedBody = true
                http_parser_pause(parser, 1)
            }
            return 0
        }
        settings.on_message_complete = { parser in
            guard let parser else { return 0 }
            HTTPHeadDecoder.of(parser).complete = true
            // One request at a time: its response goes out before the next is parsed.
            http_parser_pause(parser, 1)
            return 0
        }
    }

    private static func of(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTPHeadDecoder {
        Unmanaged<HTTPHeadDecoder>.fromOpaque(parser!.pointee.data).takeUnretainedValue()
    }

    private func beginMessage() {
        url = []
        fields = []
        inValue = false
        announcedBody = false
    }

    private func headerField(_ bytes: UnsafeRawBufferPointer) {
        if inValue || fields.isEmpty {
            fields.append((Array(bytes), []))
        } else {
            fields[fields.count - 1].name += bytes  // a name cut between two reads
        }
        inValue = false
    }

    private func headerValue(_ bytes: UnsafeRawBufferPointer) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += bytes
        inValue = true
    }

    /// Decodes from the start of `bytes` up to the first verdict other than
    /// ``Verdict/needMore``, and says how many bytes that took; the caller
    /// feeds the rest (from `used`) again after answering a request.
    package func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> (verdict: Verdict, used: Int) {
        if let refusal { return (refusal, 0) }
        // Zero bytes would tell http_parser that the stream ended.
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return (.needMore, 0) }
        if unknownMethod != nil { return readUnknownMethod(bytes, count: bytes.count) }
        if messageStart.count < Self.methodBytesSeen {
            for byte in bytes {
                if messageStart.count == Self.methodBytesSeen { break }
                if messageStart.isEmpty && (byte == 0x0D || byte == 0x0A) { continue }
                messageStart.append(byte)
            }
        }
        // Never more than one byte past the limit: http_parser counts a header
        // value's bytes after scanning it, so in one long piece an invalid byte
        // far past 8 KiB was a 400 where the same stream in pieces was a 431.
        let fed = min(bytes.count, Int(Self.maxHeadBytes) + 1 - headBytes)
        let used = withUnsafeMutablePointer(to: &parser) { parserPointer in
            parserPointer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
            return base.withMemoryRebound(to: CChar.self, capacity: fed) { chars in
                http_parser_execute(parserPointer, &settings, chars, fed)
            }
        }
        headBytes += used
        let status = http_errno(rawValue: parser.http_errno)
        if announcedBody {
            let method = http_method(rawValue: parser.method)
            guard method == HTTP_GET || method == HTTP_HEAD else {
                return (refuse(405, "Only GET and HEAD are served.", why: "sent a request with a method other than GET or HEAD"), used)
            }
            return (refuse(400, "A GET or HEAD request carries no body.", why: "sent a request with a body"), used)
        }
        if complete {
            complete = false
            messageStart = []
            headBytes = 0
            http_parser_pause(&parser, 0)
            let request = makeRequest()
            if let (status, reason) = Self.problem(of: request) {
                return (refuse(status, reason, why: "sent a malformed HTTP request (\(reason))"), used)
            }
            return (.request(request), used)
        }
        if status == HPE_INVALID_METHOD {
            // Any method token but GET and HEAD is 405 (WEB.md §2), known to http_parser or not.
            // The message's bytes so far hold its method's verdict, or all it has sent yet.
            unknownMethod = []
            return readUnknownMethod(messageStart, count: bytes.count)
        }
        if status == HPE_HEADER_OVERFLOW || (status == HPE_OK && headBytes > Int(Self.maxHeadBytes)) {
            return (refuse(431, "The request head is over 8 KiB.", why: "sent a request head over 8 KiB"), used)
        }
        if status != HPE_OK {
            let name = String(cString: http_errno_description(status))
            return (refuse(400, "Malformed request: \(name).", why: "sent a malformed HTTP request (\(name))"), used)
        }
        return (.needMore, used)
    }

    /// Reads a method http_parser refused up to the space after it: a token
    /// (RFC 9110 §9) is a method this host does not serve (405), anything
    /// else a malformed request (400). Every byte given is taken.
    private func readUnknownMethod<Bytes: Sequence<UInt8>>(_ bytes: Bytes, count: Int) -> (verdict: Verdict, used: Int) {
        var method = unknownMethod ?? []
        for byte in bytes {
            if byte == 0x20 && !method.isEmpty {
                return (refuse(405, "Only GET and HEAD are served.", why: "sent a request with a method other than GET or HEAD"), count)
            }
            method.append(byte)
            guard HTTPRequest.isTokenByte(byte), method.count < Self.methodBytesSeen else {
                return (refuse(400, "Malformed request: invalid HTTP method.", why: "sent a malformed HTTP request (invalid HTTP method)"),
                        count)
            }
        }
        unknownMethod = method
        return (.needMore, count)
    }

    /// What RFC 9112 §3.2 and §5 refuse in a head http_parser reads leniently:
    /// a field name that is not a token ("Host : x"), a Host missing from an
    /// HTTP/1.1 request, given twice, or not a host; a major version other than 1.
    private static func problem(of request: HTTPRequest) -> (status: Int, reason: String)? {
        guard request.majorVersion == 1 else {
            return (505, "Only HTTP/1.1 (and 1.0) is served.")
        }
        if let bad = request.headers.first(where: { $0.name.isEmpty || !$0.name.utf8.allSatisfy(HTTPRequest.isTokenByte) }) {
            return (400, "Malformed request: the header field name '\(bad.name)' is not a token.")
        }
        let hosts = request.headers.filter { $0.name.lowercased() == "host" }
        if hosts.count > 1 { return (400, "Malformed request: more than one Host header.") }
        if hosts.isEmpty && request.minorVersion >= 1 { return (400, "Malformed request: an HTTP/1.1 request needs a Host header.") }
        if let host = hosts.first?.value.trimmingCharacters(in: " \t"), !host.utf8.allSatisfy(HTTPRequest.isHostByte) {
            return (400, "Malformed request: the Host header is not a host.")
        }
        return nil
    }

    private func refuse(_ status: Int, _ reason: String, why: String) -> Verdict {
        let verdict = Verdict.refused(status: status, reason: reason, why: why)
        refusal = verdict
        return verdict
    }

    private func makeRequest() -> HTTPRequest {
        let method = String(cString: http_method_str(http_method(rawValue: parser.method)))
        return HTTPRequest(
            method: method,
            target: String(decoding: url, as: UTF8.self),
            headers: fields.map { (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self)) },
            majorVersion: Int(parser.http_major),
            minorVersion: Int(parser.http_minor),
            keepAlive: http_should_keep_alive(&parser) != 0,
            isUpgrade: parser.upgrade == 1)
    }
}
