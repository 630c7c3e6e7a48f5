internal import CLinux
import Glibc

/// One accepted client connection. Use it only on the loop's thread (see
/// ``EventLoop``); the listener's ``ConnectionHandler`` hears its lines and its end.
public final class Connection {
    /// Unique within the loop; handy as a dictionary key off the loop.
    public let id: ConnectionID
    /// Where the client connects from (for Unix-domain clients: the socket path).
    public let peer: SocketAddress
    /// The listener that accepted it.
    public let listener: Listener

    let loop: EventLoop
    let fileDescriptor: Int32
    /// A refused connection being sent its `busy` line: never shown to the handler.
    let isRejection: Bool
    /// The socket's registration with the loop, and the events it is polled for.
    var token: UInt64 = 0
    var interest: UInt32 = 0
    var lifecycle = ConnectionLifecycle()
    /// Who holds reading back and why; why the input ended.
    var reading = ConnectionReadGate()
    /// Whether a flush is due, whether the kernel's buffer is full, the output limit.
    var writing: ConnectionWriteState
    /// When the establish and close timers are armed; `timers` has the loop's handles.
    var deadlines = ConnectionDeadlines()
    var timers = ConnectionTimers()
    /// The message layer (lines by default; DeckWeb's HTTP, then WebSocket).
    /// Replaced by an inert one when the connection closes, never mutated by
    /// a close: it may be mid-feed (see ``MessageFraming``).
    var framing: any MessageFraming
    /// The byte-stream layer beneath the framing (TLS), if any.
    var stream: (any ByteStreamLayer)?
    /// Bytes a framing switch left unread (after an HTTP upgrade), fed to the new framing.
    var pendingInput: [UInt8] = []
    var output = OutputQueue()
    /// Lines behind a replaceable one (``sendLatest(_:)``), not framed yet.
    var held = HeldLines()

    init(fileDescriptor: Int32, peer: SocketAddress, listener: Listener, id: ConnectionID, isRejection: Bool) {
        self.fileDescriptor = fileDescriptor
        self.peer = peer
        self.listener = listener
        self.loop = listener.loop
        self.id = id
        self.isRejection = isRejection
        framing = LineFraming(maxLineBytes: listener.limits.maxLineBytes, maxFirstLineBytes: listener.limits.maxFirstLineBytes)
        stream = listener.streamLayerFactory?()
        writing = ConnectionWriteState(limit: listener.limits.maxQueuedOutputBytes)
    }

    var limits: ConnectionLimits { listener.limits }

    // MARK: public API (loop thread only)

    /// Whether sends are accepted: false from the moment a close starts,
    /// whoever started it. After the input ended (see
    /// ``ConnectionHandler/connectionInputEnded(_:)``) it stays true until
    /// the layer above closes, though no more lines come.
    public var isOpen: Bool {
        loop.preconditionInLoop()
        return lifecycle.isOpen
    }

    /// Whether ``markEstablished()`` was called.
    public var isEstablished: Bool {
        loop.preconditionInLoop()
        return deadlines.isEstablished
    }

    /// Bytes queued in the process that the kernel has not taken yet.
    public var queuedOutputBytes: Int {
        loop.preconditionInLoop()
        return output.pendingBytes
    }

    /// Queues one line. The line object is shared, not copied: send the same
    /// ``OutboundLine`` to every client of a broadcast. Output is written when
    /// the loop finishes its current turn (several lines go out in one
    /// `sendmsg`). Returns false, sending nothing, once the connection is
    /// closing; also false when this line pushed a peer that does not read
    /// past ``ConnectionLimits/maxQueuedOutputBytes`` and it was closed.
    @discardableResult
    public func send(_ line: OutboundLine) -> Bool {
        loop.preconditionInLoop()
        guard lifecycle.isOpen else { return false }
        if !held.isEmpty { return hold(line, replaceable: false) }
        framing.frame(line, on: self)
        return lifecycle.isOpen
    }

    /// Queues bytes a framing made (a frame, an HTTP response), through the
    /// stream layer if there is one. Accepted until the descriptor closes,
    /// so a close frame can follow the last reply.
    package func writeFramed(_ segment: OutputSegment) {
        guard !lifecycle.isClosed else { return }
        if let stream {
            writeRaw(stream.outbound(segment.bytes, on: self))
        } else {
            output.append(segment)
            queued()
        }
    }

    /// Queues bytes for the socket as they are (a stream layer's records).
    package func writeRaw(_ bytes: [UInt8]) {
        guard !lifecycle.isClosed, !bytes.isEmpty else { return }
        output.append(OutputSegment(OutboundBytes(bytes)))
        queued()
    }

    /// Replaces the message layer (an HTTP connection upgraded to WebSocket);
    /// `remaining` (bytes read past the old layer's end) goes to the new one first.
    package func switchFraming(to framing: any MessageFraming, remaining: [UInt8]) {
        loop.preconditionInLoop()
        guard lifecycle.isReceiving else { return }
        self.framing = framing
        pendingInput = remaining
    }

    /// Restarts the establish timeout (a framing that starts a new phase: an
    /// HTTP request head due, a WebSocket's `hello` due after the upgrade).
    package func restartEstablishTimer() {
        loop.preconditionInLoop()
        guard lifecycle.isReceiving, let timeout = limits.establishTimeout else { return }
        apply(deadlines.phaseBegan(timeout: timeout))
    }

    /// Closes after what is queued, without telling the layer above anything
    /// but the close (a framing that has finished: HTTP `Connection: close`, a violation).
    package func closeAfterFraming(_ reason: CloseReason) {
        loop.preconditionInLoop()
        apply(lifecycle.stopReceiving())
        apply(lifecycle.close(reason, afterFlush: true, outputPending: hasOutput))
    }

    /// After bytes were queued: write them this turn, or check the limit
    /// while the peer is not reading.
    private func queued() {
        holdReadingIfOutputHigh()
        apply(writing.framed(bytes: waitingBytes))
    }

    /// Marks the handshake done, which stops the establish timeout.
    public func markEstablished() {
        loop.preconditionInLoop()
        apply(deadlines.markEstablished())
    }

    /// Stops delivering lines (and reading the socket, so the client is held
    /// back by TCP) until ``resumeReading()``. Lines already read are kept.
    public func pauseReading() {
        loop.preconditionInLoop()
        guard lifecycle.isOpen else { return }
        apply(reading.pause())
    }

    /// Delivers lines again: first those kept while paused (on the next loop
    /// turn, never from inside this call), then new input.
    public func resumeReading() {
        loop.preconditionInLoop()
        apply(reading.resume(receiving: lifecycle.isReceiving))
    }

    /// Reading goes on: first the lines the framing kept (as a loop task,
    /// never from inside the caller), then the socket.
    func readAgain() {
        if framing.holdsCompleteMessages {
            loop.state.localTasks.append { [self] in deliverHeldLines() }
        } else {
            updateInterest()
        }
    }

    /// Whether reading is paused.
    public var isReadingPaused: Bool {
        loop.preconditionInLoop()
        return reading.isPaused
    }

    /// Closes now; queued output is dropped.
    public func close() {
        loop.preconditionInLoop()
        apply(lifecycle.close(.closedByHost, afterFlush: false, outputPending: hasOutput))
    }

    /// Stops delivering lines and accepting sends, writes what is queued
    /// (e.g. an `error` line sent just before), then closes — within
    /// ``ConnectionLimits/closeTimeout`` even if the peer does not read.
    ///
    /// After the input ended, this is how the layer above finishes the
    /// connection once it has sent its replies: after a line over the limit,
    /// ``ConnectionLimits/tooLargeReply`` goes out last; the close reason is
    /// why the input ended (`.peerClosed`, `.lineTooLong`), not `.closedByHost`.
    ///
    /// `intent` is for layers that tell the peer why (a WebSocket's close code).
    public func closeAfterFlush(_ intent: CloseIntent = .normal) {
        loop.preconditionInLoop()
        var reason = CloseReason.closedByHost
        // Lines that waited behind a layout go out before any last words.
        if lifecycle.isOpen, !held.isEmpty { releaseHeld() }
        if let inputEnd = reading.inputEnd, lifecycle.isOpen {
            reason = inputEnd
            if case .lineTooLong = inputEnd, let reply = limits.tooLargeReply { framing.frame(reply, on: self) }
        }
        if lifecycle.isOpen {
            framing.finish(reason, intent: intent, on: self)
            if let stream { writeRaw(stream.finish(on: self)) }
        }
        apply(lifecycle.close(reason, afterFlush: true, outputPending: hasOutput))
    }

    // MARK: internals

    /// Registers the socket and starts the establish timer.
    func start() throws(TransportError) {
        interest = EpollBits.readable
        token = try loop.state.register(fileDescriptor, events: interest, .connection(self), what: "a connection")
        if !isRejection { apply(deadlines.started(timeout: limits.establishTimeout)) }
    }

    /// Performs what a lifecycle transition asks for.
    func apply(_ transition: ConnectionLifecycle.Transition) {
        if let reason = transition.notify {
            apply(deadlines.closeNotified())
            // Held lines still go out on a flushing close, framed while the framing is there.
            if case .flushThenClose = transition.action, !held.isEmpty { releaseHeld() }
            dropFraming()
            if !isRejection {
                let handler = listener.handler
                loop.state.localTasks.append { [self] in handler.connectionClosed(self, reason: reason) }
            }
        }
        switch transition.action {
        case .none:
            break
        case .closeNow:
            closeDescriptor()
            return
        case .flushThenClose:
            uncapKernelOutput()
            apply(deadlines.closing(timeout: limits.closeTimeout))
            apply(writing.flushWanted())
        case .shutDownAndLinger:
            _ = shutdown(fileDescriptor, Int32(SHUT_WR))
            apply(deadlines.closing(timeout: limits.closeTimeout))
        }
        updateInterest()
    }

    /// Best effort for a stopping loop: the framing's last words (a WebSocket's
    /// 1001, going away, so a browser knows the host stopped rather than the
    /// network failing), one write attempt, then close.
    func closeForStop() {
        if lifecycle.isOpen { framing.finish(.loopStopped, intent: .normal, on: self) }
        if !lifecycle.isClosed && hasOutput { flush() }
        apply(lifecycle.fail(.loopStopped))
    }

    func establishTimedOut() {
        guard deadlines.establishFired(), lifecycle.isOpen, let timeout = limits.establishTimeout else { return }
        if let reply = limits.establishTimeoutReply { framing.frame(reply, on: self) }
        framing.finish(.notEstablished(timeout: timeout), intent: .normal, on: self)
        apply(lifecycle.close(.notEstablished(timeout: timeout), afterFlush: true, outputPending: hasOutput))
    }

    private func closeDescriptor() {
        for action in deadlines.closed() { apply(action) }
        loop.state.unregister(fileDescriptor, token: token)
        Sys.close(fileDescriptor)
        output.removeAll()
        held.removeAll()
        dropFraming()
        listener.connectionFinished(self)
    }

    /// Whether the socket should be polled for input: never after the peer's
    /// EOF; always while closing (input is read and dropped so the final
    /// close sends FIN, not RST); not while the layer above answers after the
    /// input ended (TCP holds the peer back); otherwise unless paused or
    /// holding undelivered lines, or held back by its own unread output.
    var wantsRead: Bool {
        if lifecycle.peerSentEOF { return false }
        if lifecycle.isClosing { return true }
        return lifecycle.isReceiving && reading.isFlowing && !framing.holdsCompleteMessages
    }

    /// Frees what the framing keeps: a fresh inert one takes its place (the
    /// old one may be mid-feed and is freed when that returns).
    private func dropFraming() {
        if !(framing is ClosedFraming) { framing = ClosedFraming.shared }
        pendingInput = []
    }

    func updateInterest() {
        guard !lifecycle.isClosed else { return }
        let wanted = (wantsRead ? EpollBits.readable : 0) | (writing.isBlocked ? EpollBits.writable : 0)
        if wanted != interest {
            interest = wanted
            loop.state.modify(fileDescriptor, token: token, events: wanted)
        }
    }

    /// Handles what epoll reported for this socket.
    func handle(events: UInt32) {
        if lifecycle.isClosed { return }
        if events & (EpollBits.readable | EpollBits.hangup | EpollBits.error) != 0 && wantsRead {
            readAvailable()
        }
        if lifecycle.isClosed { return }
        if events & EpollBits.writable != 0 { flush() }
        if lifecycle.isClosed { return }
        if events & EpollBits.error != 0 {
            apply(lifecycle.fail(.socketError(errno: pendingSocketError())))
        } else if events & EpollBits.hangup != 0 {
            // Both directions are shut (the peer is gone): nothing more can be sent.
            apply(lifecycle.fail(.peerClosed))
        }
    }

    private func pendingSocketError() -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fileDescriptor, SOL_SOCKET, SO_ERROR, &code, &length)
        return code == 0 ? ECONNRESET : code
    }
}
