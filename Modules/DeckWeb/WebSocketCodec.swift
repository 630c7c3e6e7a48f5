#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CWslay

/// The server side of one WebSocket (RFC 6455, WEB.md §4) by wslay's event
/// API, without a socket: bytes from the client in, text messages and an
/// end out, and the bytes to write back (pongs, the answer to a close, a
/// close with its code) taken with ``takeOutput()``. ``WebSocketFraming``
/// drives it on a connection; the fuzz target `websocket` feeds it any bytes.
/// wslay reassembles fragments, answers pings and close frames, and refuses
/// frames the RFC forbids (unmasked, bad opcodes, oversized or fragmented
/// control frames); each such refusal closes with 1002.
///
/// A class, not a value: wslay's callbacks find their state through a pointer to it.
package final class WebSocketCodec {
    /// What ended the conversation.
    package enum End: Equatable, Sendable {
        /// A text message over the limit, known from its frame headers: the
        /// host answers `error tooLarge` and closes with 1009 (``close(code:)``).
        case tooLarge
        /// The client's close frame, answered already.
        case peerClosed
        /// A frame RFC 6455 or WEB.md §4 forbids: the close with `code` is written already.
        case violation(code: UInt16, why: String)
    }

    /// The end, once there is one; nothing is read after it.
    package private(set) var end: End?
    /// When the peer was last heard from (monotonic), and whether a ping awaits its pong.
    package private(set) var lastHeard: ContinuousClock.Instant
    package private(set) var pingSent = false

    private var context: OpaquePointer?
    private let maxMessageBytes: UInt64
    /// The limit of the first text message (the `hello`), never above `maxMessageBytes`.
    private let maxFirstMessageBytes: UInt64
    /// Whether a text message has arrived: from then on `maxMessageBytes` applies.
    private var messageArrivedOnce = false
    /// The chunk being read (only during `wslay_event_recv`), and where a read of it must end.
    private var input: UnsafeBufferPointer<UInt8>?
    private var inputOffset = 0
    private var cuts: ArraySlice<Int> = []
    /// Where the frames are, and the bytes held back until a header or a control frame is whole.
    private var frameCuts = WebSocketFrameCuts()
    private var heldBack: [UInt8] = []
    /// Bytes wslay wrote, not yet taken.
    private var output: [UInt8] = []
    /// Text messages completed during one ``receive(_:)``.
    private var arrived: [Data] = []
    /// The size of the text message being received, its fragments so far (from their headers).
    private var messageBytes: UInt64 = 0
    /// The text message being received, as its frames' payloads come (wslay buffers no data frame).
    private var message: [UInt8] = []
    /// Whether the frame being received is part of a text message (not a control frame).
    private var inTextFrame = false
    /// wslay's writing is shut (it had queued a close we do not want sent): frames go by its frame API.
    private var framedByHand = false
    private var closedByHand = false
    /// The clock (a test's or the fuzzer's may stand still).
    private let now: () -> ContinuousClock.Instant
    /// Frames that bring the host nothing (pings, pongs, empty data frames that do not end a message)
    /// the client may still send now, and when that was last counted.
    private var idleFrameBudget = WebSocketCodec.idleFrameBurst
    private var idleFrameCounted: ContinuousClock.Instant

    /// How many frames that bring the host nothing a client may send at once,
    /// and how many a second after that. Each costs the loop as much as a
    /// message and is no message, so the turn's share of messages (16) never
    /// bounds them: a flood of empty pings held every other client 50–240 ms
    /// before a `hello`, with no token (an audit's finding). A client's
    /// keep-alive needs one every few seconds; a browser sends none.
    package static let idleFrameBurst = 64.0
    package static let idleFramesPerSecond = 16.0

    /// A codec whose text messages may be up to `maxMessageBytes` long, the
    /// first of them up to `maxFirstMessageBytes` (nil: `maxMessageBytes`).
    package init(maxMessageBytes: Int, maxFirstMessageBytes: Int? = nil,
                 clock: @escaping () -> ContinuousClock.Instant = { .now }) throws(WebError) {
        self.maxMessageBytes = UInt64(maxMessageBytes)
        self.maxFirstMessageBytes = UInt64(min(maxFirstMessageBytes ?? maxMessageBytes, maxMessageBytes))
        now = clock
        lastHeard = clock()
        idleFrameCounted = lastHeard
        var callbacks = wslay_event_callbacks()
        callbacks.recv_callback = { context, buffer, length, _, user in
            WebSocketCodec.of(user).read(into: buffer, length, context)
        }
        callbacks.send_callback = { _, data, length, _, user in
            WebSocketCodec.of(user).output.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            return length
        }
        callbacks.on_frame_recv_start_callback = { _, argument, user in
            guard let argument else { return }
            WebSocketCodec.of(user).frameStarts(opcode: argument.pointee.opcode, length: argument.pointee.payload_length,
                                                final: argument.pointee.fin != 0)
        }
        callbacks.on_frame_recv_chunk_callback = { _, argument, user in
            guard let argument else { return }
            WebSocketCodec.of(user).chunkArrived(UnsafeBufferPointer(start: argument.pointee.data,
                                                                     count: argument.pointee.data_length))
        }
        callbacks.on_msg_recv_callback = { _, argument, user in
            guard let argument else { return }
            WebSocketCodec.of(user).messageArrived(opcode: argument.pointee.opcode)
        }
        var made: OpaquePointer?
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard wslay_event_context_server_init(&made, &callbacks, user) == 0, let made else {
            throw .resource("could not make a WebSocket context (out of memory)")
        }
        context = made
        // wslay would allocate each data frame's payload at its header, whatever length it claims (up
        // to 2 GiB, past which it closes with 1009 before our callback sees the header): it buffers
        // control frames only (125 bytes at most), and the codec keeps a text message up to the limit.
        wslay_event_config_set_no_buffering(made, 1)
        wslay_event_config_set_max_recv_msg_length(made, UInt64.max)
    }

    deinit {
        wslay_event_context_free(context)
    }

    private static func of(_ user: UnsafeMutableRawPointer?) -> WebSocketCodec {
        Unmanaged<WebSocketCodec>.fromOpaque(user!).takeUnretainedValue()
    }

    // MARK: wslay's callbacks

    private func read(into buffer: UnsafeMutablePointer<UInt8>?, _ length: Int, _ context: OpaquePointer?) -> Int {
        guard end == nil, let input, inputOffset < input.count, let buffer else {
            wslay_event_set_error(context, Int32(WSLAY_ERR_WOULDBLOCK.rawValue))
            return -1
        }
        // A read ends where a control frame starts or ends: wslay then has each one whole in its buffer.
        while let cut = cuts.first, cut <= inputOffset { cuts.removeFirst() }
        let count = min(length, (cuts.first ?? input.count) - inputOffset)
        buffer.update(from: input.baseAddress! + inputOffset, count: count)
        inputOffset += count
        return count
    }

    private func frameStarts(opcode: UInt8, length: UInt64, final: Bool) {
        lastHeard = now()
        pingSent = false
        let ping = UInt32(opcode) == WSLAY_PING.rawValue, pong = UInt32(opcode) == WSLAY_PONG.rawValue
        // An empty final frame ends a message (the host gets it); one that is not final brings nothing yet.
        let emptyData = length == 0 && !final
            && (UInt32(opcode) == WSLAY_TEXT_FRAME.rawValue || UInt32(opcode) == WSLAY_CONTINUATION_FRAME.rawValue)
        if ping || pong || emptyData {
            let elapsed = idleFrameCounted.duration(to: lastHeard)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            idleFrameBudget = min(Self.idleFrameBurst, idleFrameBudget + max(0, seconds) * Self.idleFramesPerSecond) - 1
            idleFrameCounted = lastHeard
            if idleFrameBudget < 0 {
                ended(.violation(code: 1008, why: "sent more than \(Int(Self.idleFrameBurst)) WebSocket pings, pongs or empty "
                    + "frames at once (\(Int(Self.idleFramesPerSecond)) a second after that), which bring the host nothing"))
                return
            }
        }
        inTextFrame = false
        switch UInt32(opcode) {
        case WSLAY_BINARY_FRAME.rawValue:
            ended(.violation(code: 1003, why: "sent a binary WebSocket message (only text messages are protocol messages)"))
        case WSLAY_TEXT_FRAME.rawValue, WSLAY_CONTINUATION_FRAME.rawValue:
            if UInt32(opcode) == WSLAY_TEXT_FRAME.rawValue {
                messageBytes = 0
                message.removeAll(keepingCapacity: message.capacity <= 64 * 1024)
            }
            messageBytes &+= length
            // Known from the frame header, before any of its payload is kept.
            if messageBytes > (messageArrivedOnce ? maxMessageBytes : maxFirstMessageBytes) { ended(.tooLarge) }
            inTextFrame = true
        case WSLAY_CONNECTION_CLOSE.rawValue where length == 1:
            // RFC 6455 §5.5.1 forbids it (a body starts with a code); wslay would answer it with a close
            // without a code, so from here frames go by hand and that answer stays unsent.
            writeByHand()
            ended(.violation(code: 1002, why: "sent a close frame whose body is one byte (a body starts with a two-byte code)"))
        default:
            break
        }
    }

    private func chunkArrived(_ bytes: UnsafeBufferPointer<UInt8>) {
        if inTextFrame, end == nil { message.append(contentsOf: bytes) }
    }

    private func messageArrived(opcode: UInt8) {
        guard end == nil, UInt32(opcode) == WSLAY_TEXT_FRAME.rawValue else { return }
        guard String(validating: message, as: UTF8.self) != nil else {
            ended(.violation(code: 1007, why: "sent a WebSocket text message that is not UTF-8"))
            return
        }
        arrived.append(Data(message))
        messageArrivedOnce = true
    }

    /// The conversation ends here: wslay reads no further frame, not even one
    /// it has buffered already (it went on to refuse a bad one after this and
    /// close with 1002 itself, and the close code depended on how the reads were cut).
    private func ended(_ reason: End) {
        guard end == nil else { return }
        end = reason
        wslay_event_shutdown_read(context)
    }

    // MARK: the connection's side

    /// Bytes from the client: the text messages they complete, in order.
    /// Pongs, the answer to a close and a close for a violation are then in
    /// ``takeOutput()``; an end, if these bytes made one, in ``end``.
    package func receive(_ bytes: UnsafeBufferPointer<UInt8>) -> [Data] {
        let result: Int32
        if heldBack.isEmpty {
            result = recv(bytes)
        } else {
            let stream = heldBack + bytes
            result = stream.withUnsafeBufferPointer { recv($0) }
        }
        if result == Int32(WSLAY_ERR_CALLBACK_FAILURE.rawValue) {
            // Our recv callback only ever reports WOULDBLOCK, so this is wslay 1.1's frame layer refusing a
            // header (a control frame over 125 bytes or in fragments, a length with its top bit set) before
            // any frame callback sees it; wslay then queues a close with no status code. That one stays
            // unsent (writing shut down) and ours, with the code, goes instead.
            end = end ?? .violation(code: 1002,
                                    why: "sent a WebSocket frame header RFC 6455 forbids (a control frame over 125 bytes or in fragments)")
            writeByHand()
            close(code: closeCode(of: end))
        } else if result < 0 {
            end = end ?? .violation(code: 1002, why: "sent a WebSocket frame RFC 6455 forbids")
        }
        // When wslay refused the frame itself it has queued its own close already, and this one is not taken.
        if case .violation(let code, _) = end {
            if framedByHand { close(code: code) } else { _ = wslay_event_queue_close(context, code, nil, 0) }
        }
        // wslay may have gone on to check the oversized message's first bytes and queued a close with 1007
        // (or 1002 for a bad frame); the host answers `tooLarge` and closes with 1009, as without them.
        if end == .tooLarge { writeByHand() }
        pump()  // pongs, the answer to a close, a close of ours or wslay's
        if end == nil && wslay_event_get_close_received(context) != 0 { end = .peerClosed }
        if end == nil && (wslay_event_get_read_enabled(context) == 0 || wslay_event_get_close_sent(context) != 0) {
            // wslay refused a frame and sent its own close: 1007 for a text message or close reason that is
            // not UTF-8 (it checks as the payload comes, so the check in messageArrived rarely gets the chance), else 1002.
            let sent = wslay_event_get_status_code_sent(context)
            end = sent == 1007
                ? .violation(code: 1007, why: "sent a WebSocket text message that is not UTF-8")
                : .violation(code: 1002, why: "sent a WebSocket frame RFC 6455 forbids")
        }
        // The messages before an end are the host's, whether or not they came in the same read as it.
        defer { arrived.removeAll(keepingCapacity: true) }
        return arrived
    }

    /// Gives wslay what of `stream` it may have now, and holds back the rest.
    private func recv(_ stream: UnsafeBufferPointer<UInt8>) -> Int32 {
        let (deliverable, cuts) = frameCuts.cut(stream)
        input = UnsafeBufferPointer(rebasing: stream[..<deliverable])
        inputOffset = 0
        self.cuts = cuts[...]
        defer { input = nil }
        heldBack = Array(stream[deliverable...])
        return wslay_event_recv(context)
    }

    /// One text message to the client (a host line without its LF).
    package func send(text payload: UnsafeRawBufferPointer) {
        if framedByHand {
            frameByHand(opcode: UInt8(WSLAY_TEXT_FRAME.rawValue), payload.assumingMemoryBound(to: UInt8.self))
            return
        }
        var message = wslay_event_msg(opcode: UInt8(WSLAY_TEXT_FRAME.rawValue),
                                      msg: payload.baseAddress?.assumingMemoryBound(to: UInt8.self), msg_length: payload.count)
        _ = wslay_event_queue_msg(context, &message)  // copies the payload
        pump()
    }

    /// A ping (the host's keep-alive for a silent socket, WEB.md §4).
    package func ping() {
        guard !framedByHand else { return }
        var message = wslay_event_msg(opcode: UInt8(WSLAY_PING.rawValue), msg: nil, msg_length: 0)
        _ = wslay_event_queue_msg(context, &message)
        pingSent = true
        pump()
    }

    /// The close frame with `code`, unless a close went out already or writing is shut.
    package func close(code: UInt16) {
        if framedByHand {
            let payload: [UInt8] = [UInt8(code >> 8), UInt8(code & 0xFF)]  // network byte order
            payload.withUnsafeBufferPointer { frameByHand(opcode: UInt8(WSLAY_CONNECTION_CLOSE.rawValue), $0) }
            closedByHand = true
            return
        }
        guard wslay_event_get_close_sent(context) == 0, wslay_event_get_write_enabled(context) != 0 else { return }
        _ = wslay_event_queue_close(context, code, nil, 0)
        pump()
    }

    /// The bytes to write to the client since the last call.
    package func takeOutput() -> [UInt8] {
        defer { output.removeAll(keepingCapacity: output.capacity <= 64 * 1024) }
        return output
    }

    /// The code a close for `end` carries when wslay's own close is kept unsent.
    private func closeCode(of end: End?) -> UInt16 {
        switch end {
        case .violation(let code, _): code
        case .tooLarge: 1009
        case .peerClosed, nil: 1002
        }
    }

    /// From now on frames are written by wslay's frame API: the event
    /// context's writing is shut, so a close it queued (without our code,
    /// or with another) is never sent, nor any control frame queued with it.
    private func writeByHand() {
        wslay_event_shutdown_write(context)
        framedByHand = true
    }

    /// One unmasked frame (a server's are never masked), unless the close went out already.
    private func frameByHand(opcode: UInt8, _ payload: UnsafeBufferPointer<UInt8>) {
        guard !closedByHand else { return }
        var callbacks = wslay_frame_callbacks()
        callbacks.send_callback = { data, length, _, user in
            WebSocketCodec.of(user).output.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            return length
        }
        var frameContext: OpaquePointer?
        guard wslay_frame_context_init(&frameContext, &callbacks, Unmanaged.passUnretained(self).toOpaque()) == 0,
              let frameContext else { return }  // out of memory: the connection closes without this frame
        defer { wslay_frame_context_free(frameContext) }
        var iocb = wslay_frame_iocb()
        iocb.fin = 1
        iocb.opcode = opcode
        iocb.mask = 0
        iocb.payload_length = UInt64(payload.count)
        iocb.data = payload.baseAddress
        iocb.data_length = payload.count
        _ = wslay_frame_send(frameContext, &iocb)  // the send callback takes every byte
    }

    /// Has wslay write what it queued.
    private func pump() {
        _ = wslay_event_send(context)
    }
}
