/// One response, written as HTTP/1.1 bytes. Every response carries the
/// headers WEB.md §2 asks of all: `nosniff`, `no-referrer`, and a length.
struct HTTPResponse {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// For HEAD: the headers of the GET, no body.
    var omitBody = false
    /// Close the connection after this response.
    var close = false

    init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], close: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.close = close
    }

    /// A short plain-text answer (errors), with the headers its status
    /// requires (``requiredHeaders(of:)``).
    static func text(_ status: Int, _ message: String, close: Bool = false, extra: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + requiredHeaders(of: status) + extra,
                     body: Array((message + "\n").utf8), close: close)
    }

    /// What a status must say whoever answers it: 405 the methods served
    /// (RFC 9110 §15.5.6), 426 the upgrade to make and, for the WebSocket,
    /// the version served (RFC 6455 §4.2.2).
    static func requiredHeaders(of status: Int) -> [(String, String)] {
        switch status {
        case 405: [("Allow", "GET, HEAD")]
        case 426: [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")]
        default: []
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 426: "Upgrade Required"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }

    /// The bytes on the wire.
    func serialized() -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
        // 101 and 304 have no body (a 304's length would describe the 200's).
        if status != 101 && status != 304 { head += "Content-Length: \(body.count)\r\n" }
        if close { head += "Connection: close\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !omitBody && status != 304 { bytes += body }
        return bytes
    }
}
