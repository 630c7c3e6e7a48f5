import DeckTransport

/// TLS as a connection's byte-stream layer, beneath whatever framing the
/// listener uses (NDJSON lines on the device port, HTTP and WebSocket on
/// the web listener): one code path for both. The framing above sees only
/// plaintext; the layer writes its own handshake records.
///
/// Install it with ``Listener/useTLS(_:)``. The handshake runs inside the
/// listener's establish timeout (the 10 s before `hello`), which starts at accept.
package final class TLSStreamLayer: ByteStreamLayer {
    private var session: TLSSession

    package init(context: TLSContext) {
        session = TLSSession(server: context)
    }

    package func inbound(_ bytes: UnsafeBufferPointer<UInt8>, on connection: Connection)
        throws(StreamLayerFailure) -> [UInt8] {
        var plaintext: [UInt8] = []
        for action in session.receive(UnsafeRawBufferPointer(bytes)) {
            switch action {
            case let .write(records):
                connection.writeRaw(records)
            case let .deliver(bytes):
                plaintext += bytes
            case .handshakeCompleted, .closedByPeer:
                // The TCP FIN that follows close_notify ends the input as usual.
                break
            case let .fail(error):
                throw StreamLayerFailure(error.description)
            }
        }
        return plaintext
    }

    package func outbound(_ bytes: UnsafeRawBufferPointer, on connection: Connection) -> [UInt8] {
        Self.written(session.send(bytes))
    }

    package func finish(on connection: Connection) -> [UInt8] {
        Self.written(session.close())
    }

    /// Sending never delivers; a failure to write a record leaves nothing to send.
    private static func written(_ actions: [TLSSession.Action]) -> [UInt8] {
        var records: [UInt8] = []
        for case let .write(bytes) in actions { records += bytes }
        return records
    }
}

/// The certificate a listener serves, replaceable while it runs (SIGHUP
/// re-reads `--tls-cert`/`--tls-key`): connections accepted afterwards get
/// the new one, open ones keep theirs. Loop thread only.
public final class TLSContextHolder {
    /// The context new connections are made from; set it on the loop thread.
    public var context: TLSContext

    /// Holds `context` for the listeners given it with `Listener.useTLS(_:)`.
    public init(_ context: TLSContext) {
        self.context = context
    }
}

extension Listener {
    /// Makes every connection accepted from now on speak TLS with the
    /// holder's current certificate (SECURITY.md §2): the connection's
    /// handler sees plaintext lines as before.
    public func useTLS(_ holder: TLSContextHolder) {
        streamLayerFactory = { TLSStreamLayer(context: holder.context) }
    }
}
