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
        for _ in 0..<Self.readsPerTurn {
            let count = Sys.retrying { read(fileDescriptor, buffer.baseAddress, buffer.count) }
            if count > 0 {
                // While closing, input is read only to be dropped.
                if lifecycle.isReceiving { deliver(UnsafeBufferPointer(rebasing: buffer[0..<count])) }
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
        // The framer is taken out of `self` while it calls the handler: the
        // handler may close this connection, which resets `self.framer`, and
        // that must not overlap the framer's own mutating call.
        var framer = takeFramer()
        let outcome = framer.feed(chunk) { line in handOver(line) }
        putBack(framer, outcome)
    }

    /// Delivers lines kept while reading was paused (a loop task after resume).
    func deliverHeldLines() {
        guard lifecycle.isReceiving, !readPaused else { return }
        var framer = takeFramer()
        let outcome = framer.deliverBuffered { line in handOver(line) }
        putBack(framer, outcome)
        updateInterest()
    }

    private func handOver(_ line: Data) -> Bool {
        listener.handler.connection(self, received: line)
        return lifecycle.isReceiving && !readPaused
    }

    private func takeFramer() -> LineFramer {
        let framer = self.framer
        self.framer = LineFramer(maxLineBytes: framer.maxLineBytes)
        return framer
    }

    private func putBack(_ framer: LineFramer, _ outcome: LineFramer.Outcome) {
        guard lifecycle.isReceiving else { return }
        self.framer = framer
        if outcome == .tooLong {
            // It cannot be resynchronised mid-line: nothing after it is read.
            apply(lifecycle.stopReceiving())
            inputEnded(.lineTooLong(limit: limits.maxLineBytes))
        }
    }

    /// No more lines come. The handler still owes replies to the lines it
    /// was given, which may come later (after a durable write): it answers,
    /// then calls `closeAfterFlush()`, which sends `tooLargeReply` last
    /// after an over-long line. So replies keep their order, and a client
    /// that half-closes after its last request still gets every reply.
    private func inputEnded(_ reason: CloseReason) {
        inputEnd = reason
        framer.reset()
        updateInterest()
        listener.handler.connectionInputEnded(self)
    }

    // MARK: output

    /// Writes as much queued output as the kernel takes, in `sendmsg` calls
    /// of up to 64 buffers; a short write means the socket buffer is full,
    /// so the rest waits for EPOLLOUT. MSG_NOSIGNAL: a vanished peer gives
    /// EPIPE here instead of a SIGPIPE that would kill the process.
    func flush() {
        flushScheduled = false
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
        if output.isEmpty {
            writeBlocked = false
            apply(lifecycle.outputDrained())
        } else {
            writeBlocked = true
            if output.pendingBytes > limits.maxQueuedOutputBytes {
                apply(lifecycle.fail(.outputLimit(limit: limits.maxQueuedOutputBytes)))
                return
            }
            updateInterest()
        }
    }
}
