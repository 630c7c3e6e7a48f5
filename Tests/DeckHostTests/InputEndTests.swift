import DeckModel
import DeckProtocol
import DeckTestSupport
import DeckTransport
import Foundation
import Testing

/// A client that stops sending — it half-closes (`printf … | nc -N`), or its
/// last line is over the limit (PROTOCOL.md §9) — is still owed the replies
/// to every line before, in order, even those that wait for a durable write;
/// then `tooLarge` if that was the end, then the close.
@Suite("Replies owed when a client stops sending, end to end")
struct InputEndTests {
    enum Socket: String, CaseIterable { case tcp, control }

    /// hello, then requests whose replies come at once (`ping`) and after a
    /// snapshot is on disk (the edits), all sent in one write.
    static func requests(kind: String) -> [UInt8] {
        let button = DeckButton(name: "Half", action: .run(command: "true"))
        let messages: [ClientMessage] = [
            ClientMessage(id: .int(1), .hello(Hello(device: Device(name: "half", kind: kind)))),
            ClientMessage(id: .int(2), .ping),
            ClientMessage(id: .int(3), .setButton(page: 0, index: 7, button: button)),
            ClientMessage(id: .int(4), .ping),
            ClientMessage(id: .int(5), .clearButton(page: 0, index: 7, expecting: button)),
            ClientMessage(id: .int(6), .setButton(page: 1, index: 7, button: button)),
        ]
        return messages.flatMap { $0.line() }
    }

    static func connect(_ socket: Socket, to host: HostProcess) throws -> HostClient {
        switch socket {
        case .tcp: try host.rawDevice()
        case .control: try HostClient(LineClient(connectingTo: .unix(path: host.control)))
        }
    }

    /// Every message until the host closes the connection.
    static func everything(from client: HostClient) throws -> [HostMessage] {
        var messages: [HostMessage] = []
        while true {
            do {
                messages.append(try client.next())
            } catch TransportError.connectionClosed {
                return messages
            }
        }
    }

    /// The replies (messages with an id), as `type id`.
    static func replies(_ messages: [HostMessage]) -> [String] {
        messages.compactMap { message in message.id.map { "\(message.type) \($0)" } }
    }

    static let expected = ["welcome 1", "pong 2", "ok 3", "pong 4", "ok 5", "ok 6"]

    @Test(arguments: Socket.allCases)
    func aHalfClosedClientGetsEveryReplyThenTheClose(_ socket: Socket) throws {
        let host = try startedHost()
        let client = try Self.connect(socket, to: host)
        try client.line.write(Self.requests(kind: socket == .tcp ? "phone" : "control"))
        client.line.shutdownSending()
        let messages = try Self.everything(from: client)
        #expect(Self.replies(messages) == Self.expected)
        #expect(try host.controlClient().status().revision == 4)
        #expect(host.waitForLog("half (\(socket == .tcp ? "phone" : "control"), "))
        #expect(host.waitForLog("left: closed by the client"))
    }

    @Test(arguments: Socket.allCases)
    func repliesBeforeATooLongLineComeFirstThenTooLargeThenTheClose(_ socket: Socket) throws {
        let host = try startedHost(arguments: ["--max-message", "300"])
        let client = try Self.connect(socket, to: host)
        let long = Array(#"{"type":"ping","id":7,"pad":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 400)
            + Array(#""}"#.utf8) + [0x0A]
        // Same write, so the complete lines and the long one arrive in one read.
        try client.line.write(Self.requests(kind: socket == .tcp ? "phone" : "control") + long)
        let messages = try Self.everything(from: client)
        #expect(Self.replies(messages) == Self.expected)
        guard case .error(nil, .tooLarge, _, _) = messages.last else {
            Issue.record("the last message is not tooLarge: \(messages.suffix(2))")
            return
        }
        #expect(try host.controlClient().status().revision == 4)
        #expect(host.waitForLog("left: sent a line longer than 300 bytes"))
    }
}
