#if canImport(FoundationEssentials)
import FoundationEssentials  // Data without the rest of Foundation (about 7 MB less resident memory)
#else
import Foundation
#endif

// A connection is a stack of layers, as in swift-nio's pipeline; each knows only
// the one below it:
//
//   socket ─▶ ByteStreamLayer (TLS, optional) ─▶ MessageFraming (lines, HTTP then
//   WebSocket) ─▶ ConnectionHandler (the host's session)
//
// The handler always gets whole messages and sends whole ``OutboundLine``s,
// whatever the peer speaks; the framing decides what they look like on the wire.

/// The message layer of a connection: cuts the bytes from below into the
/// messages the handler gets, and turns the handler's lines into bytes.
/// ``LineFraming`` (NDJSON) is the default; DeckWeb installs an HTTP layer
/// that becomes a WebSocket one on upgrade. Used on the loop's thread only.
///
/// Reentrancy: `deliver` runs the handler, which may `send` (→ ``frame(_:on:)``
/// on this same object) or close the connection while ``feed(_:on:deliver:)``
/// is running. A close never touches the framing: the connection drops its
/// reference, and the framing is freed when the feed returns.
package protocol MessageFraming: AnyObject {
    /// Whether complete messages wait undelivered because `deliver` said stop
    /// (reading paused): the connection then delivers them with
    /// ``deliverHeld(on:_:)`` before it reads again.
    var holdsCompleteMessages: Bool { get }

    /// Bytes from the layer below. Calls `deliver` for each complete message,
    /// in order, until it returns false; what is left is kept.
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection,
              deliver: (Data) -> Bool) -> FramingOutcome

    /// Delivers the messages kept by an earlier stop, until `deliver` returns false again.
    func deliverHeld(on connection: Connection, _ deliver: (Data) -> Bool) -> FramingOutcome

    /// One message from the handler (a line, its LF included): writes its wire
    /// form with ``Connection/writeFramed(_:)``.
    func frame(_ line: OutboundLine, on connection: Connection)

    /// The connection closes after what is queued: the last bytes this layer
    /// owes the peer (a WebSocket close frame with its code), written with
    /// ``Connection/writeFramed(_:)``.
    func finish(_ reason: CloseReason, intent: CloseIntent, on connection: Connection)
}

/// What a ``MessageFraming`` says after a feed.
package enum FramingOutcome: Equatable {
    /// Every byte was taken; an unfinished message (if any) is kept.
    case consumed
    /// `deliver` asked to stop; the rest is kept.
    case stopped
    /// A message is longer than ``ConnectionLimits/maxLineBytes``: nothing after
    /// it is read, the handler is told the input ended, and the connection sends
    /// ``ConnectionLimits/tooLargeReply`` last.
    case tooLong
    /// The peer ended the conversation inside the framing (a WebSocket close
    /// frame): as a TCP half-close, the handler still sends what it owes.
    case peerFinished
    /// The peer broke the framing's rules; the framing has written its last
    /// bytes (an error status, a close frame): close after them.
    case violation(String)
    /// The layer has done its whole job (an HTTP exchange with `Connection: close`):
    /// close after what is queued, quietly.
    case done
}

/// Why the layer above closes, for layers that tell the peer (WebSocket close codes).
public enum CloseIntent: Sendable, Equatable {
    /// An ordinary end.
    case normal
    /// The host refused the peer (a bad token or pairing code, a handshake
    /// it may not make): WebSocket code 1008.
    case refused
}

/// A byte-stream layer beneath the framing (TLS): bytes in, bytes out. Used on the
/// loop's thread only. A connection with one writes nothing to the socket that
/// did not pass through ``outbound(_:on:)`` (or ``Connection/writeRaw(_:)``).
package protocol ByteStreamLayer: AnyObject {
    /// Bytes read from the socket; returns the bytes for the framing above
    /// (empty mid-handshake). Bytes the layer must send itself (handshake
    /// records) go out with ``Connection/writeRaw(_:)``. Throwing closes the
    /// connection at once with `.socketError`-like reason `.streamFailed`.
    func inbound(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection) throws(StreamLayerFailure) -> [UInt8]

    /// Bytes from the framing to send; returns what goes to the socket (it may
    /// keep them, e.g. before its handshake is done, and write them later with
    /// ``Connection/writeRaw(_:)``).
    func outbound(_ bytes: UnsafeRawBufferPointer, on connection: Connection) -> [UInt8]

    /// The connection closes after what is queued: the layer's last bytes
    /// (a TLS close_notify), or empty.
    func finish(on connection: Connection) -> [UInt8]
}

/// Why a ``ByteStreamLayer`` gave up on its connection (for the log).
package struct StreamLayerFailure: Error, Sendable, CustomStringConvertible {
    /// A sentence for the log.
    package let description: String
    /// Makes one.
    package init(_ description: String) { self.description = description }
}

/// The NDJSON framing of PROTOCOL.md: a message is one LF-terminated line.
/// Lines go out as they are: the shared ``OutboundLine`` buffer itself is
/// queued, never copied per connection.
final class LineFraming: MessageFraming {
    private var framer: LineFramer

    init(maxLineBytes: Int, maxFirstLineBytes: Int? = nil) {
        framer = LineFramer(maxLineBytes: maxLineBytes, maxFirstLineBytes: maxFirstLineBytes)
    }

    var holdsCompleteMessages: Bool { framer.holdsCompleteLines }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection, deliver: (Data) -> Bool) -> FramingOutcome {
        // The handler runs inside: `framer` must not be under a mutating
        // access meanwhile (the connection reads `holdsCompleteMessages`).
        var working = takeFramer()
        let outcome = working.feed(bytes, deliver)
        framer = working
        return Self.outcome(outcome)
    }

    func deliverHeld(on connection: Connection, _ deliver: (Data) -> Bool) -> FramingOutcome {
        var working = takeFramer()
        let outcome = working.deliverBuffered(deliver)
        framer = working
        return Self.outcome(outcome)
    }

    func frame(_ line: OutboundLine, on connection: Connection) {
        connection.writeFramed(OutputSegment(line))
    }

    func finish(_ reason: CloseReason, intent: CloseIntent, on connection: Connection) {}

    private func takeFramer() -> LineFramer {
        let taken = framer
        // A placeholder while `taken` works; it is put back after.
        framer = LineFramer(maxLineBytes: taken.maxLineBytes)
        return taken
    }

    private static func outcome(_ outcome: LineFramer.Outcome) -> FramingOutcome {
        switch outcome {
        case .consumed: return .consumed
        case .stopped: return .stopped
        case .tooLong: return .tooLong
        }
    }
}

/// The framing of a closed connection: takes nothing, sends nothing.
final class ClosedFraming: MessageFraming, Sendable {
    static let shared = ClosedFraming()
    var holdsCompleteMessages: Bool { false }
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection, deliver: (Data) -> Bool) -> FramingOutcome {
        .consumed
    }
    func deliverHeld(on connection: Connection, _ deliver: (Data) -> Bool) -> FramingOutcome { .consumed }
    func frame(_ line: OutboundLine, on connection: Connection) {}
    func finish(_ reason: CloseReason, intent: CloseIntent, on connection: Connection) {}
}
