import DeckModel
import DeckProtocol
import DeckTransport
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One line from the host: the bytes as received (what `--json` prints,
/// unchanged) and what they mean.
struct HostLine {
    /// The line as the host sent it, without its line feed.
    let text: String
    /// The decoded message; nil for a message type this deckctl does not
    /// know (from a newer host), which is shown as it came.
    let message: HostMessage?
}

/// A control connection to the host: `hello` with kind `control` on the
/// control socket, then requests answered one at a time.
final class ControlSession {
    /// The socket path, for messages.
    let socket: String
    /// The host's answer to `hello`: the live layout, revision and lock state.
    let welcome: Welcome
    /// The `welcome` as received.
    let welcomeLine: String

    /// Called with every reply line as received, refusals included: how
    /// `--json` prints the host's replies unchanged.
    var echo: ((String) -> Void)?

    private let client: LineClient
    private var nextID = 2

    /// How long to wait for the host to accept the connection.
    static let connectTimeout = Duration.seconds(5)
    /// How long to wait for a reply (a reload of a large folder takes a while).
    static let replyTimeout = Duration.seconds(30)

    /// The name deckctl gives itself in `hello`, shown in the host's log and
    /// in events ("moved 'Files' 0/1 -> 1/0 by deckctl").
    static let deviceName = "deckctl"

    /// Connects and says hello. No host: `noHost`; a refused hello: `refused`.
    init(socket: String) throws(DeckctlError) {
        self.socket = socket
        do {
            client = try LineClient(connectingTo: .unix(path: socket), timeout: Self.connectTimeout)
        } catch {
            throw .noHost(socket: socket, reason: Self.reason(error))
        }
        let hello = ClientMessage(id: 1, .hello(Hello(device: Device(name: Self.deviceName, kind: Device.controlKind))))
        do {
            try client.send(hello.line())
        } catch {
            throw .noHost(socket: socket, reason: Self.reason(error))
        }
        let reply = try Self.awaitReply(to: 1, from: client, socket: socket, beforeHello: true)
        guard case .welcome(_, let welcome)? = reply.message else {
            throw .hostGone(socket: socket, reason: "answered hello with '\(reply.message?.type ?? "?")' instead of welcome")
        }
        self.welcome = welcome
        welcomeLine = reply.text
    }

    deinit { client.close() }

    /// Sends `request` and returns the host's reply to it; lines that are
    /// not the reply (broadcasts) are skipped. An `error` reply is thrown as `refused`.
    func request(_ request: ClientRequest, skipped: ((HostMessage) -> Void)? = nil) throws(DeckctlError) -> HostLine {
        let id = nextID
        nextID += 1
        do {
            try client.send(ClientMessage(id: .int(id), request).line())
        } catch {
            throw .hostGone(socket: socket, reason: "stopped taking requests (\(Self.reason(error)))")
        }
        let reply = try Self.awaitReply(to: id, from: client, socket: socket, beforeHello: false, skipped: skipped)
        echo?(reply.text)
        if case let .error(_, code, text, problems)? = reply.message {
            throw .refused(code: code, message: text, problems: problems)
        }
        return reply
    }

    /// The next line from the host (for `watch`): nil when `within` passes
    /// first; without `within`, however long it takes. The host closing the
    /// connection is `hostGone`.
    func nextLine(within limit: Duration? = nil) throws(DeckctlError) -> HostLine? {
        while true {
            let data: Data
            do {
                data = try client.readLine(timeout: limit ?? .seconds(3600))
            } catch .timedOut {
                if limit != nil { return nil }
                continue
            } catch {
                throw .hostGone(socket: socket, reason: Self.closedReason(error))
            }
            return HostLine(text: String(decoding: data, as: UTF8.self), message: try? HostMessage.decode(data))
        }
    }

    private static func awaitReply(to id: Int, from client: LineClient, socket: String,
                                   beforeHello: Bool, skipped: ((HostMessage) -> Void)? = nil) throws(DeckctlError) -> HostLine {
        while true {
            let data: Data
            do {
                data = try client.readLine(timeout: replyTimeout)
            } catch .timedOut {
                throw .hostGone(socket: socket, reason: "did not answer within \(replyTimeout)")
            } catch {
                // Closed before welcome: something listens but will not talk to us.
                if beforeHello { throw .noHost(socket: socket, reason: closedReason(error)) }
                throw .hostGone(socket: socket, reason: closedReason(error))
            }
            let message: HostMessage
            do {
                message = try HostMessage.decode(data)
            } catch {
                if error.code == .unsupported { continue }  // a message type from a newer host
                throw .hostGone(socket: socket, reason: "sent a line deckctl cannot read (\(error.message))")
            }
            guard message.id == .int(id) || (message.id == nil && message.type == "error") else {
                skipped?(message)
                continue
            }
            if beforeHello, case let .error(_, code, text, problems) = message {
                throw .refused(code: code, message: text, problems: problems)
            }
            return HostLine(text: String(decoding: data, as: UTF8.self), message: message)
        }
    }

    private static func reason(_ error: TransportError) -> String {
        guard case .connectFailed(_, let code) = error else { return error.description }
        switch code {
        case ENOENT: return "there is no socket file there"
        case ECONNREFUSED: return "the socket file is there, but no program is listening on it"
        case EACCES: return "permission denied; the socket belongs to another user"
        default: return error.description
        }
    }

    private static func closedReason(_ error: TransportError) -> String {
        if case .connectionClosed = error { return "closed the connection" }
        return "could not be read: \(error)"
    }
}

extension ControlSession {
    /// The titles plugins show now (PROTOCOL.md §8 `buttonState`), by slot:
    /// a control client gets them once it subscribes, before the reply to
    /// the next request.
    func pluginTitles() throws(DeckctlError) -> [DeckSlot: String] {
        if welcome.protocolLevel >= 8 {
            // Level 8: the welcome lists every face (docs/faces.md §4).
            var titles: [DeckSlot: String] = [:]
            for face in welcome.faces { if let title = face.title { titles[DeckSlot(page: face.page, index: face.index)] = title } }
            return titles
        }
        _ = try request(.subscribe)
        var titles: [DeckSlot: String] = [:]
        _ = try request(.ping) { message in
            if case let .buttonState(page, index, title) = message { titles[DeckSlot(page: page, index: index)] = title }
        }
        return titles
    }
}
