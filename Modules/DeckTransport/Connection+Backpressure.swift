internal import CLinux
import Glibc

/// Backpressure (``ConnectionLimits/outputHighWater``): a peer whose output
/// waits unread is not read either, so TCP holds it back.
///
/// 10 clients sending pings as fast as they could and never reading were
/// answered until their 8 MiB queues closed them: the kernel alone took
/// ~4 MB of pongs from each first, so deckd spent seconds of CPU (and a
/// healthy client its latency) on replies nobody read. Held back instead, a
/// flooder costs at most the high-water mark and its kernel buffers, and no
/// CPU at all once held: its requests wait in its own socket, unread.
extension Connection {
    /// After output was queued or held: past the high-water mark, input
    /// stops at the next line (the framing keeps what it has) and the socket
    /// is no longer polled for input.
    func holdReadingIfOutputHigh() {
        apply(reading.outputGrew(to: waitingBytes, highWater: limits.outputHighWater, receiving: lifecycle.isReceiving))
    }

    /// After a write: at half the high-water mark or less, read again (unless
    /// the layer above paused reading).
    func readAgainIfOutputLow() {
        apply(reading.outputShrank(to: waitingBytes, highWater: limits.outputHighWater, receiving: lifecycle.isReceiving))
    }

    /// A closing connection reads nothing more, so nothing more is answered
    /// unread: the kernel may take all it can of what is left, as it could
    /// before the cap. Bytes the kernel took are still delivered after the
    /// close timer (``ConnectionLimits/closeTimeout``) closes the socket;
    /// bytes still in the host are not.
    func uncapKernelOutput() {
        guard limits.outputHighWater != nil, peer.family != .unix else { return }
        // 0 is "the system's default" (no cap).
        try? Sys.setOption(fileDescriptor, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, 0, "TCP_NOTSENT_LOWAT")
    }

    /// Whether input is held back by unread output (tests).
    var isReadingHeldByOutput: Bool {
        loop.preconditionInLoop()
        return reading.isHeldByOutput
    }
}
