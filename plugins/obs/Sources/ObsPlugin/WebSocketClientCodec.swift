internal import CWslay

/// The client side of one WebSocket (RFC 6455) by wslay's event API, with no
/// socket: the server's bytes in, its text messages out, and the bytes to
/// write (our masked frames, pongs, the answer to a close) taken with
/// ``takeOutput()``. wslay reassembles fragments, answers pings and close
/// frames, and refuses what the RFC forbids; a message over the limit is
/// refused by the length its frame header claims (close 1009), at its first
/// payload byte, before any of its payload is kept.
///
/// A class, not a value: wslay's callbacks find it through a pointer.
final class WebSocketClientCodec {
    /// Why the conversation ended.
    enum End: Equatable {
        /// The server closed (its close frame, answered already).
        case serverClosed(code: UInt16)
        /// The server broke the protocol (an oversized message, a bad frame, a binary
        /// message): our close is queued in the output.
        case violation(String)
    }

    private(set) var end: End?
    private var context: OpaquePointer?
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var output: [UInt8] = []
    private var arrived: [String] = []
    private var generator = SystemRandomNumberGenerator()

    /// A codec for server messages of at most `maximumMessageBytes`.
    init(maximumMessageBytes: Int) {
        var callbacks = wslay_event_callbacks()
        callbacks.recv_callback = { context, buffer, length, _, user in
            WebSocketClientCodec.of(user).read(into: buffer, length, context)
        }
        callbacks.send_callback = { _, data, length, _, user in
            WebSocketClientCodec.of(user).output.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            return length
        }
        callbacks.genmask_callback = { _, buffer, length, user in
            let codec = WebSocketClientCodec.of(user)
            for index in 0..<length { buffer?[index] = UInt8.random(in: 0...255, using: &codec.generator) }
            return 0
        }
        callbacks.on_msg_recv_callback = { _, argument, user in
            guard let argument else { return }
            let codec = WebSocketClientCodec.of(user)
            let message = argument.pointee
            switch UInt32(message.opcode) {
            case WSLAY_TEXT_FRAME.rawValue:
                let bytes = UnsafeBufferPointer(start: message.msg, count: message.msg_length)
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    codec.violate(1007, "sent a text message that is not UTF-8")
                    return
                }
                codec.arrived.append(text)
            case WSLAY_BINARY_FRAME.rawValue:
                codec.violate(1003, "sent a binary message (obs-websocket's JSON protocol sends text only)")
            case WSLAY_CONNECTION_CLOSE.rawValue:
                if codec.end == nil { codec.end = .serverClosed(code: message.status_code) }
            default:
                break
            }
        }
        var made: OpaquePointer?
        let user = Unmanaged.passUnretained(self).toOpaque()
        // Out of memory at start-up: nothing sensible to carry on with.
        guard wslay_event_context_client_init(&made, &callbacks, user) == 0, let made else {
            fatalError("wslay could not make a WebSocket context (out of memory)")
        }
        context = made
        wslay_event_config_set_max_recv_msg_length(made, UInt64(maximumMessageBytes))
    }

    deinit { wslay_event_context_free(context) }

    private static func of(_ user: UnsafeMutableRawPointer?) -> WebSocketClientCodec {
        Unmanaged<WebSocketClientCodec>.fromOpaque(user!).takeUnretainedValue()
    }

    private func read(into buffer: UnsafeMutablePointer<UInt8>?, _ length: Int, _ context: OpaquePointer?) -> Int {
        guard inputOffset < input.count, let buffer else {
            wslay_event_set_error(context, Int32(WSLAY_ERR_WOULDBLOCK.rawValue))
            return -1
        }
        let count = min(length, input.count - inputOffset)
        input.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + inputOffset, count: count) }
        inputOffset += count
        return count
    }

    private func violate(_ code: UInt16, _ why: String) {
        guard end == nil else { return }
        end = .violation(why)
        _ = wslay_event_queue_close(context, code, nil, 0)
    }

    /// Reads the server's bytes; returns the text messages they completed.
    func receive(_ bytes: some Collection<UInt8>) -> [String] {
        guard end == nil else { return [] }
        input = Array(bytes)
        inputOffset = 0
        let status = wslay_event_recv(context)
        input = []
        if end == nil, status != 0 || wslay_event_get_read_enabled(context) == 0 {
            // wslay refused a frame (an oversized message, a bad opcode, an unmasked rule) and queued its close.
            // The close wslay queued is only counted as sent once written: write it (into `output`) first.
            while wslay_event_want_write(context) != 0, wslay_event_send(context) == 0 {}
            let why = switch wslay_event_get_status_code_sent(context) {
            case 1009: "sent a message over the size limit"
            case 1007: "sent a text message that is not UTF-8"
            case let code: "sent a frame RFC 6455 forbids (close \(code))"
            }
            end = .violation(why)
        }
        defer { arrived = [] }
        return arrived
    }

    /// Queues a text message.
    func send(_ text: String) {
        guard end == nil, wslay_event_get_write_enabled(context) != 0 else { return }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            var message = wslay_event_msg(opcode: UInt8(WSLAY_TEXT_FRAME.rawValue),
                                          msg: buffer.baseAddress, msg_length: buffer.count)
            _ = wslay_event_queue_msg(context, &message)  // copies the payload
        }
    }

    /// Queues a normal close (1000).
    func close() {
        guard wslay_event_get_close_sent(context) == 0, wslay_event_get_write_enabled(context) != 0 else { return }
        _ = wslay_event_queue_close(context, 1000, nil, 0)
    }

    /// The bytes to write now.
    func takeOutput() -> [UInt8] {
        while wslay_event_want_write(context) != 0 {
            if wslay_event_send(context) != 0 { break }
        }
        defer { output = [] }
        return output
    }
}
