/// The limits of PROTOCOL.md §9 that the transport enforces, and the lines it
/// sends when one is hit. The transport never builds JSON itself: the layer
/// above encodes its `tooLarge` and `busy` error lines once and passes them here.
///
/// Limits apply per listener, so a flood of TCP clients cannot lock the local
/// control socket out.
public struct ConnectionLimits: Sendable {
    /// The longest line a peer may send, LF not counted (`--max-message`).
    /// A longer one gets ``tooLargeReply`` and the connection is closed after
    /// that reply is written.
    public var maxLineBytes: Int
    /// The longest *first* line, when it must be shorter than the rest (nil:
    /// ``maxLineBytes``; never more than it). deckd's first line is the
    /// `hello`, which holds a name and a token: before it, a peer is anyone,
    /// and 250 of them each sending an unfinished 1 MiB line held ~260 MB for
    /// the 10 s before they are closed. Over it: ``tooLargeReply``, as for any line.
    public var maxFirstLineBytes: Int?
    /// Connections held at once. One more gets ``busyReply`` and is closed;
    /// the others are untouched. Connections still writing their last bytes
    /// after a close count until their descriptor is closed.
    public var maxConnections: Int
    /// Output queued in the process for one peer that is not reading. Beyond
    /// it, that connection is closed at once; nobody else ever waits for it.
    public var maxQueuedOutputBytes: Int
    /// Backpressure: output queued for one peer above which its input is no
    /// longer read, until the queue is back to half of it (as swift-nio's
    /// writability marks). TCP then holds back a peer that sends and does not
    /// read, so its requests cost nothing and it never reaches
    /// ``maxQueuedOutputBytes`` by its own replies (output the layer above
    /// pushes to it — broadcasts — still closes it there). On TCP sockets the
    /// kernel's unsent bytes are capped to the same (TCP_NOTSENT_LOWAT), or
    /// it would take ~4 MB of replies first. `nil`: no backpressure.
    public var outputHighWater: Int?
    /// Time from accept until the layer above calls
    /// ``Connection/markEstablished()`` (after a valid `hello`); a connection
    /// that is not established by then is closed. `nil` turns the limit off.
    public var establishTimeout: Duration?
    /// How long a closing connection may take to receive its last queued
    /// bytes and close its side; after that it is closed regardless.
    public var closeTimeout: Duration
    /// Idle time before TCP keepalive probes start, so a device that vanished
    /// (Wi-Fi gone) stops holding a connection slot after about this plus 30 s.
    /// `nil` leaves keepalive off. Unused for Unix-domain sockets.
    public var keepAliveIdle: Duration?
    /// Sent before closing a connection whose line was too long.
    public var tooLargeReply: OutboundLine?
    /// Sent to a connection refused at ``maxConnections``.
    public var busyReply: OutboundLine?
    /// Sent before closing a connection that was not established in time.
    public var establishTimeoutReply: OutboundLine?

    /// The defaults of PROTOCOL.md §9: 1 MiB lines, 256 connections, 8 MiB of
    /// queued output, 10 s to establish; 2 s to close; keepalive after 60 s idle.
    public init(
        maxLineBytes: Int = 1 << 20,
        maxConnections: Int = 256,
        maxQueuedOutputBytes: Int = 8 << 20,
        outputHighWater: Int? = nil,
        establishTimeout: Duration? = .seconds(10),
        closeTimeout: Duration = .seconds(2),
        keepAliveIdle: Duration? = .seconds(60),
        tooLargeReply: OutboundLine? = nil,
        busyReply: OutboundLine? = nil,
        establishTimeoutReply: OutboundLine? = nil
    ) {
        self.maxLineBytes = maxLineBytes
        self.maxConnections = maxConnections
        self.maxQueuedOutputBytes = maxQueuedOutputBytes
        self.outputHighWater = outputHighWater
        self.establishTimeout = establishTimeout
        self.closeTimeout = closeTimeout
        self.keepAliveIdle = keepAliveIdle
        self.tooLargeReply = tooLargeReply
        self.busyReply = busyReply
        self.establishTimeoutReply = establishTimeoutReply
    }

    /// Checks that every limit is usable.
    func validate() throws(TransportError) {
        if maxLineBytes < 1 { throw .invalidLimit(name: "maxLineBytes", value: "\(maxLineBytes)", rule: "at least 1 byte") }
        if let maxFirstLineBytes, maxFirstLineBytes < 1 {
            throw .invalidLimit(name: "maxFirstLineBytes", value: "\(maxFirstLineBytes)", rule: "at least 1 byte")
        }
        if maxConnections < 1 { throw .invalidLimit(name: "maxConnections", value: "\(maxConnections)", rule: "at least 1") }
        if maxQueuedOutputBytes < 1 {
            throw .invalidLimit(name: "maxQueuedOutputBytes", value: "\(maxQueuedOutputBytes)", rule: "at least 1 byte")
        }
        if let outputHighWater, outputHighWater < 2 || outputHighWater > maxQueuedOutputBytes {
            throw .invalidLimit(name: "outputHighWater", value: "\(outputHighWater)",
                                rule: "at least 2 bytes and at most maxQueuedOutputBytes, or nil for none")
        }
        if let establishTimeout, establishTimeout <= .zero {
            throw .invalidLimit(name: "establishTimeout", value: "\(establishTimeout)", rule: "positive, or nil for none")
        }
        if closeTimeout < .zero { throw .invalidLimit(name: "closeTimeout", value: "\(closeTimeout)", rule: "zero or more") }
        if let keepAliveIdle, keepAliveIdle < .seconds(1) {
            throw .invalidLimit(name: "keepAliveIdle", value: "\(keepAliveIdle)", rule: "at least 1 second, or nil for none")
        }
    }
}
