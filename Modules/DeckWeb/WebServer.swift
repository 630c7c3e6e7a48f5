#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeckTransport

/// The host's side of the web listener: a connection handler that also
/// learns, for each WebSocket, whether its page came under a name of this
/// machine (``PageHost``).
public protocol WebSocketHost: ConnectionHandler {
    /// An upgraded connection, given to the host as ``ConnectionHandler/connectionOpened(_:)``
    /// gives others. `localName` is false when the page's `Host` named something
    /// other than this machine: a loopback peer is then no more trusted than
    /// one on the network (DNS rebinding; docs/security.md). `pageHost` is that
    /// name, for the log.
    func webSocketOpened(_ connection: Connection, localName: Bool, pageHost: String?)
}

/// The web listener's layer above HTTP (WEB.md §2, §4): answers requests for the
/// app's files and icons, and hands each accepted WebSocket to the host's own
/// handler as a connection like any other, whose messages are its lines. HTTP
/// connections never reach the host. Loop-confined.
public final class WebServer: ConnectionHandler {
    /// WEB.md §4: a socket silent this long is pinged…
    static let pingAfter: Duration = .seconds(30)

    let configuration: WebConfiguration
    /// The host's handler: it gets upgraded connections only.
    private let host: any WebSocketHost
    /// This machine's host name, for ``PageHost/isThisMachine(hostName:)``.
    private let machineName = PageHost.machineName
    let files: StaticFiles
    let icons: IconCache
    private let handshake: WebSocketHandshake
    private var sockets: [ConnectionID: (connection: Connection, framing: WebSocketFraming)] = [:]
    private var pingTimer: LoopTimer?
    private let loop: EventLoop

    /// A server for one listener on `loop`, passing WebSockets to `host`.
    public init(configuration: WebConfiguration, host: any WebSocketHost, loop: EventLoop) {
        self.configuration = configuration
        self.host = host
        self.loop = loop
        files = StaticFiles(root: configuration.root)
        icons = IconCache(search: configuration.icons)
        handshake = WebSocketHandshake(extraOrigins: configuration.extraOrigins, secure: configuration.secure)
    }

    /// WebSocket devices open now.
    public var socketCount: Int { sockets.count }

    // MARK: ConnectionHandler

    /// Every connection of the web listener starts as HTTP.
    public func connectionOpened(_ connection: Connection) {
        connection.switchFraming(to: HTTPFraming(server: self), remaining: [])
    }

    /// A WebSocket's text message: a line for the host.
    public func connection(_ connection: Connection, received line: Data) {
        if sockets[connection.id] != nil { host.connection(connection, received: line) }
    }

    /// The host decides when an upgraded connection closes; HTTP ones close now.
    public func connectionInputEnded(_ connection: Connection) {
        if sockets[connection.id] != nil {
            host.connectionInputEnded(connection)
        } else {
            connection.closeAfterFlush()
        }
    }

    /// Tells the host when one of its WebSocket devices closed.
    public func connectionClosed(_ connection: Connection, reason: CloseReason) {
        guard sockets.removeValue(forKey: connection.id) != nil else { return }
        if sockets.isEmpty {
            pingTimer?.cancel()
            pingTimer = nil
        }
        host.connectionClosed(connection, reason: reason)
    }

    /// For the host's log, as a TCP device refused at the limit.
    public func connectionRejected(from peer: SocketAddress, by listener: Listener) {
        host.connectionRejected(from: peer, by: listener)
    }

    // MARK: from HTTPFraming

    /// An upgrade request: 101 and the hand-over, or a refusal (403 for a foreign Origin).
    func upgrade(_ request: HTTPRequest, on connection: Connection, remaining: [UInt8]) -> FramingOutcome {
        guard request.path == "/ws" else {
            send(.text(404, "Nothing to upgrade at \(request.path); the WebSocket is /ws.", close: true), on: connection)
            return .done
        }
        switch handshake.answer(request) {
        case let .refuse(status, reason):
            send(.text(status, reason, close: true), on: connection)
            return .done
        case let .accept(key):
            let framing: WebSocketFraming
            do {
                framing = try WebSocketFraming(maxMessageBytes: configuration.maxMessageBytes,
                                               maxFirstMessageBytes: configuration.maxFirstMessageBytes)
            } catch {
                send(.text(500, "\(error)", close: true), on: connection)
                return .done
            }
            send(HTTPResponse(status: 101, headers: [("Upgrade", "websocket"), ("Connection", "Upgrade"),
                                                     ("Sec-WebSocket-Accept", key)]), on: connection)
            connection.switchFraming(to: framing, remaining: remaining)
            connection.restartEstablishTimer()  // `hello` is due within the same 10 s as on TCP
            sockets[connection.id] = (connection, framing)
            armPingTimer()
            let page = PageHost(header: request.header("host"))
            host.webSocketOpened(connection, localName: page?.isThisMachine(hostName: machineName) ?? false,
                                 pageHost: page?.name)
            return .consumed
        }
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        var response = WebResponder(files: files, icons: icons, faces: configuration.faceImages, secure: configuration.secure)
            .respond(to: request)
        // After an upgrade's head (a HEAD or another method) comes anything but HTTP.
        if !request.keepAlive || request.isUpgrade { response.close = true }
        return response
    }

    private func send(_ response: HTTPResponse, on connection: Connection) {
        connection.writeFramed(OutputSegment(OutboundBytes(response.serialized())))
    }

    // MARK: keep-alive pings

    /// One timer for every socket: each tick pings the silent ones and closes
    /// those that stayed silent since their ping, so an idle host wakes at
    /// most every 30 s however many browsers it serves.
    private func armPingTimer() {
        guard pingTimer == nil else { return }
        pingTimer = loop.schedule(after: Self.pingAfter) { [weak self] in self?.pingTick() }
    }

    private func pingTick() {
        pingTimer = nil
        let now = ContinuousClock.now
        for (connection, framing) in sockets.values where connection.isOpen {
            // Heard from since the last tick's ping clears `pingSent`: still
            // set, it stayed silent a whole tick after being pinged (60 s in all).
            if framing.pingSent {
                connection.close()
            } else if now - framing.lastHeard >= Self.pingAfter - .seconds(1) {
                framing.ping(on: connection)
            }
        }
        if !sockets.isEmpty { armPingTimer() }
    }
}
