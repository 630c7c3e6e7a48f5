internal import CLinux
#if canImport(FoundationEssentials)
import FoundationEssentials  // Data without the rest of Foundation (about 7 MB less resident memory)
#else
import Foundation
#endif
import Glibc

extension Connection {
    /// Reads per readiness report, at most this many buffers (256 KiB), so a
    /// client that floods cannot keep the loop from its other clients.
    private static let readsPerTurn = 4

    // MARK: input

    /// Reads what the socket has, frames it and delivers the lines.
    func readAvailable() {
        let buffer = loop.state.readBuffer
        reading.turnStarted()
        for _ in 0..<Self.readsPerTurn {
            let count = Sys.retrying { read(fileDescriptor, buffer.baseAddress, buffer.count) }
            if count > 0 {
                // While closing, input is read only to be dropped.
                if lifecycle.isReceiving { deliver(UnsafeBufferPointer(rebasing: buffer[0..<count])) }
                waitForNextTurnIfSpent()
                if lifecycle.isClosed || !wantsRead || count < buffer.count { break }
            } else if count == 0 {
                let receiving = lifecycle.isReceiving
                apply(lifecycle.peerFinished())
                // Every complete line was delivered; an unfinished one never will be.
                if receiving { inputEnded(.peerClosed) }
                break
            } else {
                if errno != EAGAIN && errno != EWOULDBLOCK {
                    apply(lifecycle.fail(.socketError(errno: errno)))
                }
                break
            }
        }
        updateInterest()
    }

    private func deliver(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard let stream else { return deliverFramed(chunk) }
        let plain: [UInt8]
        do {
            plain = try stream.inbound(chunk, on: self)
        } catch {
            apply(lifecycle.fail(.streamFailed(error.description)))
            return
        }
        plain.withUnsafeBufferPointer { deliverFramed($0) }
    }

    /// Feeds bytes (plain, after any stream layer) to the framing, and to the
    /// next framing too when one takes over mid-chunk (an HTTP upgrade).
    private func deliverFramed(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard !chunk.isEmpty, lifecycle.isReceiving else { return }
        // A local reference: the handler may close the connection meanwhile,
        // which swaps `self.framing` out (see ``MessageFraming``).
        let layer = framing
        let outcome = layer.feed(chunk, on: self) { message in handOver(message) }
        finishFeed(outcome)
        if lifecycle.isReceiving, framing !== layer, !pendingInput.isEmpty {
            let rest = pendingInput
            pendingInput = []
            rest.withUnsafeBufferPointer { deliverFramed($0) }
        }
    }

    /// Delivers messages kept while reading was paused (a loop task after
    /// resume), or past this turn's share (the next turn).
    func deliverHeldLines() {
        guard lifecycle.isReceiving, reading.isFlowing else { return }
        reading.turnStarted()
        let layer = framing
        let outcome = layer.deliverHeld(on: self) { message in handOver(message) }
        finishFeed(outcome)
        waitForNextTurnIfSpent()
        updateInterest()
    }

    private func handOver(_ line: Data) -> Bool {
        listener.handler.connection(self, received: line)
        return reading.handedOver(receiving: lifecycle.isReceiving)
    }

    /// After this turn's share, the lines the framing holds wait for the
    /// next turn (and the socket is not read meanwhile: `wantsRead` is false
    /// while the framing holds complete lines).
    private func waitForNextTurnIfSpent() {
        guard reading.waitsForNextTurn(receiving: lifecycle.isReceiving, framingHoldsLines: framing.holdsCompleteMessages) else { return }
        loop.state.nextTurn.append(self)
    }

    private func finishFeed(_ outcome: FramingOutcome) {
        guard lifecycle.isReceiving else { return }
        switch outcome {
        case .consumed, .stopped:
            break
        case .tooLong:
            // It cannot be resynchronised mid-message: nothing after it is read.
            apply(lifecycle.stopReceiving())
            inputEnded(.lineTooLong(limit: limits.maxLineBytes))
        case .peerFinished:
            apply(lifecycle.stopReceiving())
            inputEnded(.peerClosed)
        case .violation(let why):
            closeAfterFraming(.protocolViolation(why))
        case .done:
            closeAfterFraming(.closedByHost)
        }
    }

    /// No more lines come. The handler still owes replies to the lines it
    /// was given, which may come later (after a durable write): it answers,
    /// then calls `closeAfterFlush()`, which sends `tooLargeReply` last
    /// after an over-long line. So replies keep their order, and a client
    /// that half-closes after its last request still gets every reply.
    private func inputEnded(_ reason: CloseReason) {
        apply(reading.inputEnded(reason))
        listener.handler.connectionInputEnded(self)
    }

    // MARK: output

    /// Writes as much queued output as the kernel takes, in `sendmsg` calls
    /// of up to 64 buffers; a short write means the socket buffer is full,
    /// so the rest waits for EPOLLOUT. MSG_NOSIGNAL: a vanished peer gives
    /// EPIPE here instead of a SIGPIPE that would kill the process.
    func flush() {
        // Lines held behind output queued this turn join it in the same
        // `sendmsg`: while the turn ran a newer layout already replaced an
        // older one, and nothing was written before its end anyway. Held
        // behind output the kernel did not take (blocked), they keep waiting.
        // Before `flushStarted`: this flush is the one they are framed for.
        if !held.isEmpty, !writing.isBlocked, !lifecycle.isClosed { releaseHeld() }
        writing.flushStarted()
        guard !lifecycle.isClosed else { return }
        let state = loop.state
        while !output.isEmpty {
            let count = output.fill(state.iovecs, capacity: LoopState.maxIOVecs)
            var requested = 0
            for index in 0..<count { requested += state.iovecs[index].iov_len }
            var message = msghdr()
            message.msg_iov = state.iovecs
            message.msg_iovlen = count
            let written = Sys.retrying { sendmsg(fileDescriptor, &message, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if written < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                apply(lifecycle.fail(.socketError(errno: errno)))
                return
            }
            output.consume(written)
            if written < requested { break }
        }
        defer { readAgainIfOutputLow() }
        switch writing.wrote(outputEmpty: output.isEmpty, bytes: waitingBytes, hasHeld: !held.isEmpty) {
        case .drained:
            apply(lifecycle.outputDrained())
        case .releaseHeld:
            // What waited behind the written output goes out next (scheduled again).
            releaseHeld()
            if output.isEmpty { apply(lifecycle.outputDrained()) } else { apply(writing.flushWanted()) }
        case .waitForWritable:
            updateInterest()
        case .failOverLimit:
            apply(lifecycle.fail(.outputLimit(limit: limits.maxQueuedOutputBytes)))
        }
    }
}
