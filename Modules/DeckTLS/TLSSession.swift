internal import COpenSSL

/// One TLS connection as a state machine over memory buffers, so it runs on
/// the event loop's non-blocking sockets: no blocking handshake, no thread.
/// The caller feeds it what the socket read and what the layer above wants
/// to send, and performs the actions it returns, in order: ``Action/write(_:)``
/// bytes to the socket, ``Action/deliver(_:)`` plaintext to the layer above.
///
/// A value type over one OpenSSL connection: a copy shares that connection,
/// so keep exactly one (the connection's layer).
public struct TLSSession {
    /// What the caller does next, in the order given.
    public enum Action: Equatable, Sendable {
        /// Write these bytes (TLS records) to the socket.
        case write([UInt8])
        /// Hand this plaintext to the layer above.
        case deliver([UInt8])
        /// The handshake finished; plaintext flows both ways from now on.
        case handshakeCompleted
        /// The peer sent close_notify: no more plaintext comes.
        case closedByPeer
        /// The connection is unusable: write what came before (an alert), then close.
        case fail(TLSError)
    }

    private enum State {
        /// Nothing read yet: the first byte tells a TLS client from a plain one.
        case awaitingFirstByte
        case handshaking
        case open
        /// The peer sent close_notify: nothing more is read, but the replies
        /// owed to what it sent may still be written (TLS 1.3 half-close).
        case peerFinished
        /// close_notify sent; nothing more is read or written.
        case finished
        case failed
    }

    /// TLS record type 22: every TLS client's first byte (its ClientHello).
    private static let handshakeRecordType: UInt8 = 0x16
    /// The largest TLS record's plaintext; reads go in pieces of this size.
    private static let recordSize = 16_384

    private var state: State
    private let connection: SSLConnection
    /// Plaintext sent before the handshake finished, written as soon as it does.
    private var pending: [UInt8] = []

    /// The server side of a connection just accepted.
    public init(server context: TLSContext) {
        connection = SSLConnection(context: context, server: true)
        state = .awaitingFirstByte
    }

    /// The client side (tests, tools); call ``start()`` for the ClientHello.
    package init(client context: TLSContext, serverName: String?) {
        connection = SSLConnection(context: context, server: false)
        if let serverName {
            _ = deck_SSL_set_tlsext_host_name(connection.ssl, serverName)
            _ = SSL_set1_host(connection.ssl, serverName)
        }
        state = .handshaking
    }

    /// Whether the handshake has finished and plaintext flows.
    public var isEstablished: Bool {
        if case .open = state { return true }
        return false
    }

    /// The negotiated protocol (`TLSv1.3`), once established.
    public var protocolVersion: String? {
        isEstablished ? String(cString: SSL_get_version(connection.ssl)) : nil
    }

    /// A client starts the handshake: the ClientHello to write.
    package mutating func start() -> [Action] {
        var actions: [Action] = []
        advanceHandshake(into: &actions)
        return actions
    }

    /// Bytes the socket read.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer) -> [Action] {
        guard !bytes.isEmpty else { return [] }
        switch state {
        case .finished, .failed, .peerFinished:
            return []
        case .awaitingFirstByte:
            guard bytes[0] == Self.handshakeRecordType else {
                // A plain client gets nothing back, not even an alert it could not read.
                state = .failed
                return [.fail(.notTLS)]
            }
            state = .handshaking
        case .handshaking, .open:
            break
        }
        guard connection.feed(bytes) else {
            state = .failed
            return [.fail(.record(OpenSSLErrors.drain(fallback: "out of memory")))]
        }
        var actions: [Action] = []
        if case .handshaking = state { advanceHandshake(into: &actions) }
        if case .open = state { readPlaintext(into: &actions) }
        return actions
    }

    /// Plaintext the layer above sends. Before the handshake finishes it is
    /// kept and written right after.
    public mutating func send(_ plaintext: UnsafeRawBufferPointer) -> [Action] {
        switch state {
        case .awaitingFirstByte, .handshaking:
            pending.append(contentsOf: plaintext)
            return []
        case .finished, .failed:
            return []
        case .open, .peerFinished:
            var actions: [Action] = []
            write(plaintext, into: &actions)
            return actions
        }
    }

    /// Ends the session: the close_notify alert to write before closing the socket.
    public mutating func close() -> [Action] {
        switch state {
        case .open, .peerFinished:
            state = .finished
            OpenSSLErrors.clear()
            _ = SSL_shutdown(connection.ssl)
            return connection.drainOutput().map { [.write($0)] } ?? []
        case .awaitingFirstByte, .handshaking:
            state = .finished
            return []
        case .finished, .failed:
            return []
        }
    }

    // MARK: steps

    private mutating func advanceHandshake(into actions: inout [Action]) {
        OpenSSLErrors.clear()
        let result = SSL_do_handshake(connection.ssl)
        let code = result == 1 ? SSL_ERROR_NONE : SSL_get_error(connection.ssl, result)
        if let output = connection.drainOutput() { actions.append(.write(output)) }
        switch code {
        case SSL_ERROR_NONE:
            state = .open
            actions.append(.handshakeCompleted)
            if !pending.isEmpty {
                let held = pending
                pending = []
                held.withUnsafeBytes { write($0, into: &actions) }
            }
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            break
        default:
            state = .failed
            actions.append(.fail(.handshake(OpenSSLErrors.drain(fallback: "the peer broke the handshake"))))
        }
    }

    private mutating func readPlaintext(into actions: inout [Action]) {
        var plaintext: [UInt8] = []
        var outcome: Action?
        withUnsafeTemporaryAllocation(byteCount: Self.recordSize, alignment: 1) { buffer in
            while true {
                OpenSSLErrors.clear()
                let count = SSL_read(connection.ssl, buffer.baseAddress, Int32(buffer.count))
                if count > 0 {
                    plaintext.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<Int(count)]))
                    continue
                }
                switch SSL_get_error(connection.ssl, count) {
                case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                    break
                case SSL_ERROR_ZERO_RETURN:
                    outcome = .closedByPeer
                default:
                    outcome = .fail(.record(OpenSSLErrors.drain(fallback: "a malformed record")))
                }
                return
            }
        }
        // TLS 1.3 tickets, key updates and refused renegotiations write records of their own.
        if let output = connection.drainOutput() { actions.append(.write(output)) }
        if !plaintext.isEmpty { actions.append(.deliver(plaintext)) }
        if let outcome {
            state = outcome == .closedByPeer ? .peerFinished : .failed
            actions.append(outcome)
        }
    }

    private mutating func write(_ plaintext: UnsafeRawBufferPointer, into actions: inout [Action]) {
        guard let base = plaintext.baseAddress, !plaintext.isEmpty else { return }
        OpenSSLErrors.clear()
        var written = 0
        // Memory BIOs take everything, so SSL_write never wants to retry.
        guard SSL_write_ex(connection.ssl, base, plaintext.count, &written) == 1, written == plaintext.count else {
            state = .failed
            actions.append(.fail(.record(OpenSSLErrors.drain(fallback: "the record could not be written"))))
            return
        }
        if let output = connection.drainOutput() { actions.append(.write(output)) }
    }
}

/// Owns one OpenSSL connection and its two memory BIOs: the socket's bytes
/// go into `input`, the records to send come out of `output`.
private final class SSLConnection {
    let ssl: OpaquePointer
    private let input: OpaquePointer
    private let output: OpaquePointer
    /// Kept so the context outlives every connection made from it.
    private let context: TLSContext

    init(context: TLSContext, server: Bool) {
        // Allocation failures here mean the process is out of memory.
        guard let ssl = SSL_new(context.context), let input = BIO_new(BIO_s_mem()),
              let output = BIO_new(BIO_s_mem()) else {
            fatalError("OpenSSL could not allocate a connection: out of memory")
        }
        SSL_set_bio(ssl, input, output)  // ssl owns both BIOs from here on
        if server { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
        self.ssl = ssl
        self.input = input
        self.output = output
        self.context = context
    }

    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var written = 0
        return BIO_write_ex(input, bytes.baseAddress, bytes.count, &written) == 1 && written == bytes.count
    }

    /// The records OpenSSL produced since the last call, or nil for none.
    func drainOutput() -> [UInt8]? {
        let count = deck_BIO_pending(output)
        guard count > 0 else { return nil }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var read = 0
            _ = BIO_read_ex(output, buffer.baseAddress, count, &read)
            initialized = read
        }
    }

    deinit {
        SSL_free(ssl)
    }
}
