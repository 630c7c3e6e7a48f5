#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeckTransport

/// The HTTP/1.1 layer of a web connection (WEB.md §2): request heads read by
/// ``HTTPHeadDecoder``, one response per request in order (pipelining),
/// keep-alive, and on a good `/ws` upgrade the hand-over to
/// ``WebSocketFraming``. It delivers no messages to the host: HTTP never
/// reaches a session.
final class HTTPFraming: MessageFraming {
    private unowned let server: WebServer
    private let decoder = HTTPHeadDecoder()

    init(server: WebServer) {
        self.server = server
    }

    var holdsCompleteMessages: Bool { false }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection, deliver: (Data) -> Bool) -> FramingOutcome {
        var rest = bytes[...]
        while !rest.isEmpty {
            let (verdict, used) = decoder.decode(UnsafeBufferPointer(rebasing: rest))
            rest = rest.dropFirst(used)
            switch verdict {
            case .needMore:
                return .consumed
            case let .refused(status, reason, why):
                send(.text(status, reason, close: true), on: connection)
                return .violation(why)
            case .request(let request):
                // http_parser counts a CONNECT as an upgrade too: that one is a method not served.
                if request.isUpgrade && request.method == "GET" {
                    return server.upgrade(request, on: connection, remaining: Array(rest))
                }
                let response = server.respond(to: request)
                send(response, on: connection)
                if response.close { return .done }
                connection.restartEstablishTimer()  // the next head is due within 10 s too
            }
        }
        return .consumed
    }

    private func send(_ response: HTTPResponse, on connection: Connection) {
        connection.writeFramed(OutputSegment(OutboundBytes(response.serialized())))
    }

    func deliverHeld(on connection: Connection, _ deliver: (Data) -> Bool) -> FramingOutcome { .consumed }

    /// Host lines (an establish-timeout error) mean nothing to an HTTP client: dropped.
    func frame(_ line: OutboundLine, on connection: Connection) {}

    func finish(_ reason: CloseReason, intent: CloseIntent, on connection: Connection) {}
}
