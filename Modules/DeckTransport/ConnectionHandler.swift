#if canImport(FoundationEssentials)
import FoundationEssentials  // Data without the rest of Foundation (about 7 MB less resident memory)
#else
import Foundation
#endif
import Glibc

/// What the layer above (the host) is told about the connections of a
/// listener. Every method is called on the event loop's thread.
///
/// For each accepted connection: ``connectionOpened(_:)`` once, then
/// ``connection(_:received:)`` for each line in order, perhaps
/// ``connectionInputEnded(_:)``, then ``connectionClosed(_:reason:)``
/// exactly once, whoever closed it. The close
/// notice is never delivered from inside a call you made (a `send` that hits
/// the output limit, a `close()`): it arrives a moment later on the loop, so a
/// handler can send to and close connections while iterating its own tables.
public protocol ConnectionHandler: AnyObject {
    /// A new connection was accepted and is within the listener's limits.
    func connectionOpened(_ connection: Connection)

    /// One complete line arrived, LF removed (a CR before it is kept: the
    /// transport does not look inside lines). Not called once the connection
    /// is closing or while reading is paused.
    func connection(_ connection: Connection, received line: Data)

    /// No more lines will come: the peer shut down its sending side (a
    /// client may half-close after its last request and read on), or sent a
    /// line over ``ConnectionLimits/maxLineBytes``. Every complete line
    /// before was delivered; a partial one is dropped. The connection still
    /// takes sends: send the replies owed to those lines, then call
    /// ``Connection/closeAfterFlush()`` (which adds the `tooLargeReply` after
    /// an over-long line). Until then the socket is not read. The default
    /// closes at once, for a handler that answers every line as it arrives.
    func connectionInputEnded(_ connection: Connection)

    /// The connection is closed for the layer above: sends are ignored from
    /// now on. The transport may still be writing its last queued bytes.
    func connectionClosed(_ connection: Connection, reason: CloseReason)

    /// A connection arrived while the listener was at its connection limit;
    /// it was sent the configured `busy` line and closed (for the log).
    func connectionRejected(from peer: SocketAddress, by listener: Listener)
}

extension ConnectionHandler {
    /// Closes after what is queued, for a handler whose replies are all sent
    /// by the time a line has been handed to it.
    public func connectionInputEnded(_ connection: Connection) {
        connection.closeAfterFlush()
    }
}

/// Why a connection closed.
public enum CloseReason: Sendable, Equatable, CustomStringConvertible {
    /// The peer closed its side; the handler then closed after sending its
    /// replies (or the peer went away entirely).
    case peerClosed
    /// The layer above called ``Connection/close()`` or ``Connection/closeAfterFlush()``.
    case closedByHost
    /// The peer sent a line longer than the limit; the configured `tooLarge`
    /// line was sent, then the connection closed.
    case lineTooLong(limit: Int)
    /// More than `limit` bytes of output waited for a peer that does not read.
    case outputLimit(limit: Int)
    /// The connection was not marked established within the timeout.
    case notEstablished(timeout: Duration)
    /// The socket failed (`errno`), e.g. a reset by the peer.
    case socketError(errno: Int32)
    /// The event loop stopped.
    case loopStopped
    /// The peer broke its framing's rules (a malformed HTTP head, a WebSocket
    /// frame the RFC forbids); the framing said so on the wire first.
    case protocolViolation(String)
    /// The connection's stream layer (TLS) failed.
    case streamFailed(String)

    /// A short phrase for the log.
    public var description: String {
        switch self {
        case .peerClosed: return "closed by the client"
        case .closedByHost: return "closed by the host"
        case let .lineTooLong(limit): return "sent a line longer than \(limit) bytes"
        case let .outputLimit(limit): return "did not read its output (more than \(limit) bytes waiting)"
        case let .notEstablished(timeout): return "did not complete its handshake within \(timeout)"
        case let .socketError(code): return "socket error: \(TransportError.message(for: code))"
        case .loopStopped: return "the host is stopping"
        case let .protocolViolation(why): return why
        case let .streamFailed(why): return why
        }
    }
}

/// A connection's number, unique within its event loop for the loop's life.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    /// The number.
    public let rawValue: UInt64
    /// `#12`.
    public var description: String { "#\(rawValue)" }
}
