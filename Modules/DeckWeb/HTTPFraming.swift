#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CHTTPParser
import DeckTransport

/// The HTTP/1.1 layer of a web connection (WEB.md §2): request heads parsed
/// by http_parser, one response per request in order (pipelining), keep-alive,
/// and on a good `/ws` upgrade the hand-over to ``WebSocketFraming``. It
/// delivers no messages to the host: HTTP never reaches a session.
final class HTTPFraming: MessageFraming {
    /// WEB.md §2: a request head over 8 KiB gets 431.
    static let maxHeadBytes: UInt32 = 8 * 1024

    /// http_parser's head limit is one global of the library; set once, before any parse.
    private static let headLimitSet: Void = { http_parser_set_max_header_size(maxHeadBytes) }()

    private unowned let server: WebServer
    private var parser = http_parser()
    private var settings = http_parser_settings()
    // The head being read.
    private var url: [UInt8] = []
    private var fields: [(name: [UInt8], value: [UInt8])] = []
    private var inValue = false
    private var announcedBody = false
    private var complete = false

    init(server: WebServer) {
        Self.headLimitSet
        self.server = server
        http_parser_init(&parser, HTTP_REQUEST)
        http_parser_settings_init(&settings)
        settings.on_message_begin = { parser in
            HTTPFraming.of(parser).beginMessage()
            return 0
        }
        settings.on_url = { parser, data, length in
            HTTPFraming.of(parser).url.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        settings.on_header_field = { parser, data, length in
            HTTPFraming.of(parser).headerField(UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        settings.on_header_value = { parser, data, length in
            HTTPFraming.of(parser).headerValue(UnsafeRawBufferPointer(start: data, count: length))
            return 0
        }
        settings.on_headers_complete = { parser in
            guard let parser else { return 0 }
            let framing = HTTPFraming.of(parser)
            let chunked = parser.pointee.flags & UInt32(F_CHUNKED.rawValue) != 0
            let length = parser.pointee.content_length
            if chunked || (length > 0 && length != UInt64.max) {
                // A body on GET/HEAD is refused at once, without reading it.
                framing.announcedBody = true
                http_parser_pause(parser, 1)
            }
            return 0
        }
        settings.on_message_complete = { parser in
            guard let parser else { return 0 }
            HTTPFraming.of(parser).complete = true
            // One request at a time: its response goes out before the next is parsed.
            http_parser_pause(parser, 1)
            return 0
        }
    }

    private static func of(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTPFraming {
        Unmanaged<HTTPFraming>.fromOpaque(parser!.pointee.data).takeUnretainedValue()
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
            fields[fields.count - 1].name += bytes
        }
        inValue = false
    }

    private func headerValue(_ bytes: UnsafeRawBufferPointer) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += bytes
        inValue = true
    }

    var holdsCompleteMessages: Bool { false }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection, deliver: (Data) -> Bool) -> FramingOutcome {
        guard let base = bytes.baseAddress else { return .consumed }
        var offset = 0
        while offset < bytes.count {
            let parsed = withUnsafeMutablePointer(to: &parser) { parserPointer in
                parserPointer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                    http_parser_execute(parserPointer, &settings, chars + offset, bytes.count - offset)
                }
            }
            offset += parsed
            let status = http_errno(rawValue: parser.http_errno)
            if announcedBody {
                send(.text(400, "A GET or HEAD request carries no body.", close: true), on: connection)
                return .violation("sent a request with a body")
            }
            if complete {
                complete = false
                http_parser_pause(&parser, 0)
                let request = makeRequest()
                if request.isUpgrade {
                    let rest = Array(UnsafeBufferPointer(rebasing: bytes[offset...]))
                    return server.upgrade(request, on: connection, remaining: rest)
                }
                let response = server.respond(to: request)
                send(response, on: connection)
                if response.close { return .done }
                connection.restartEstablishTimer()  // the next head is due within 10 s too
                continue
            }
            if status == HPE_HEADER_OVERFLOW {
                send(.text(431, "The request head is over 8 KiB.", close: true), on: connection)
                return .violation("sent a request head over 8 KiB")
            }
            if status != HPE_OK {
                let name = String(cString: http_errno_description(status))
                send(.text(400, "Malformed request: \(name).", close: true), on: connection)
                return .violation("sent a malformed HTTP request (\(name))")
            }
            if parsed == 0 { break }
        }
        return .consumed
    }

    private func makeRequest() -> HTTPRequest {
        let method = String(cString: http_method_str(http_method(rawValue: parser.method)))
        return HTTPRequest(
            method: method,
            target: String(decoding: url, as: UTF8.self),
            headers: fields.map { (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self)) },
            minorVersion: Int(parser.http_minor),
            keepAlive: http_should_keep_alive(&parser) != 0,
            isUpgrade: parser.upgrade == 1)
    }

    private func send(_ response: HTTPResponse, on connection: Connection) {
        connection.writeFramed(OutputSegment(OutboundBytes(response.serialized())))
    }

    func deliverHeld(on connection: Connection, _ deliver: (Data) -> Bool) -> FramingOutcome { .consumed }

    /// Host lines (an establish-timeout error) mean nothing to an HTTP client: dropped.
    func frame(_ line: OutboundLine, on connection: Connection) {}

    func finish(_ reason: CloseReason, intent: CloseIntent, on connection: Connection) {}
}
