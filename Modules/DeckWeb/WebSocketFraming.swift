#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeckTransport

/// The WebSocket layer of an upgraded connection (WEB.md §4) on
/// DeckTransport's loop: ``WebSocketCodec`` reads the frames, each text
/// message is one protocol message for the host, each host line goes out as
/// one text message, and what the codec writes goes to the connection.
final class WebSocketFraming: MessageFraming {
    private let codec: WebSocketCodec
    /// Messages read but not yet delivered (delivery stopped: reading paused).
    private var held: [Data] = []
    private var heldStart = 0
    /// Whether the codec's end was handed to the connection.
    private var endReported = false

    /// When the peer was last heard from (monotonic), and whether a ping awaits its pong.
    var lastHeard: ContinuousClock.Instant { codec.lastHeard }
    var pingSent: Bool { codec.pingSent }

    init(maxMessageBytes: Int, maxFirstMessageBytes: Int?) throws(WebError) {
        codec = try WebSocketCodec(maxMessageBytes: maxMessageBytes, maxFirstMessageBytes: maxFirstMessageBytes)
    }

    var holdsCompleteMessages: Bool { heldStart < held.count || (codec.end != nil && !endReported) }

    func feed(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection, deliver: (Data) -> Bool) -> FramingOutcome {
        held += codec.receive(bytes)
        flush(connection)
        // Any end (a violation too) is reported after the messages before it are delivered.
        return deliverHeld(on: connection, deliver)
    }

    func deliverHeld(on connection: Connection, _ deliver: (Data) -> Bool) -> FramingOutcome {
        while heldStart < held.count {
            let message = held[heldStart]
            heldStart += 1
            if heldStart == held.count {
                held.removeAll(keepingCapacity: true)
                heldStart = 0
            }
            if !deliver(message) { return holdsCompleteMessages ? .stopped : .consumed }
        }
        endReported = codec.end != nil
        switch codec.end {
        case .tooLarge: return .tooLong
        case .peerClosed: return .peerFinished
        case .violation(_, let why): return .violation(why)
        case nil: return .consumed
        }
    }

    func frame(_ line: OutboundLine, on connection: Connection) {
        line.data.dropLast().withUnsafeBytes { codec.send(text: $0) }  // the LF: a message needs none
        flush(connection)
    }

    func finish(_ reason: CloseReason, intent: CloseIntent, on connection: Connection) {
        let code: UInt16
        switch (intent, reason) {
        case (.refused, _): code = 1008
        case (_, .lineTooLong): code = 1009
        case (_, .notEstablished): code = 1008
        case (_, .loopStopped): code = 1001
        default: code = 1000
        }
        codec.close(code: code)
        flush(connection)
    }

    /// Sends a ping (the host's keep-alive for a silent socket, WEB.md §4).
    func ping(on connection: Connection) {
        codec.ping()
        flush(connection)
    }

    /// Queues the bytes the codec wrote on the connection.
    private func flush(_ connection: Connection) {
        let output = codec.takeOutput()
        guard !output.isEmpty else { return }
        connection.writeFramed(OutputSegment(OutboundBytes(output)))
    }
}
