internal import CLinux
import Glibc

/// A listening socket (TCP or Unix-domain) on an event loop. Use it only on
/// the loop's thread. Made by ``EventLoop/listen(on:limits:handler:)``.
public final class Listener {
    /// Refused connections still being sent their `busy` line; beyond this,
    /// a refused connection is closed right after one write attempt, so a
    /// flood of refused connections cannot pile up descriptors.
    static let maxRejecting = 32

    /// The address actually bound (with the real port when 0 was asked for).
    public let address: SocketAddress
    /// The limits this listener's connections live by.
    public let limits: ConnectionLimits
    /// Told about every connection of this listener.
    public let handler: any ConnectionHandler
    /// Makes the byte-stream layer (TLS) of each connection accepted from now
    /// on; nil for plain connections. See ``ByteStreamLayer``.
    package var streamLayerFactory: (() -> any ByteStreamLayer)?
    /// Connections counted with other listeners' under one limit (the web
    /// listener's with the TCP devices', WEB.md §1); nil: this listener's own.
    package var sharedCount: SharedConnectionCount?

    let loop: EventLoop
    let fileDescriptor: Int32
    private var token: UInt64 = 0
    private var listening = true
    private(set) var unixSocket: UnixSocketFile?
    private var pauseTimer: LoopTimer?
    private(set) var activeCount = 0
    private var rejectingCount = 0

    init(fileDescriptor: Int32, address: SocketAddress, limits: ConnectionLimits, handler: any ConnectionHandler,
         loop: EventLoop, unixSocket: UnixSocketFile?) {
        self.fileDescriptor = fileDescriptor
        self.address = address
        self.limits = limits
        self.handler = handler
        self.loop = loop
        self.unixSocket = unixSocket
    }

    /// Where a client connects to reach this listener.
    public var endpoint: Endpoint {
        address.family == .unix ? .unix(path: address.host) : .tcp(host: address.host, port: address.port)
    }

    /// Whether it still accepts connections.
    public var isListening: Bool {
        loop.preconditionInLoop()
        return listening
    }

    /// Connections holding a slot under ``ConnectionLimits/maxConnections``
    /// (open ones, and closing ones until their descriptor is closed).
    public var connectionCount: Int {
        loop.preconditionInLoop()
        return activeCount
    }

    /// Stops accepting and closes the listening socket; a Unix socket file
    /// is removed (if it is still the one this listener made). Connections
    /// already accepted stay open.
    public func close() {
        loop.preconditionInLoop()
        guard listening else { return }
        listening = false
        pauseTimer?.cancel()
        pauseTimer = nil
        loop.state.unregister(fileDescriptor, token: token)
        Sys.close(fileDescriptor)
        unixSocket?.remove()
        unixSocket = nil
    }

    func start() throws(TransportError) {
        do {
            token = try loop.state.register(fileDescriptor, events: EpollBits.readable, .listener(self), what: "a listener")
        } catch {
            listening = false
            Sys.close(fileDescriptor)
            unixSocket?.remove()
            throw error
        }
    }

    /// A connection of this listener closed its descriptor.
    func connectionFinished(_ connection: Connection) {
        if connection.isRejection {
            rejectingCount -= 1
        } else {
            activeCount -= 1
            sharedCount?.count -= 1
        }
    }

    // MARK: accepting

    /// Accepts waiting connections (a bounded batch per turn, for fairness).
    func acceptAvailable() {
        for _ in 0..<64 {
            guard listening else { return }
            var raw = RawSocketAddress()
            let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = Sys.retrying { raw.withMutableSockaddr { accept4(fileDescriptor, $0, $1, flags) } }
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK:
                    return
                case ECONNABORTED, EPROTO, EPERM, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH,
                     EOPNOTSUPP, ENETUNREACH:
                    // The connection died in the queue, or a network error
                    // that accept(2) says to treat like EAGAIN: next one.
                    continue
                case EMFILE, ENFILE:
                    if shedWithReserve() { continue }
                    pause()
                    return
                default:
                    // ENOBUFS, ENOMEM: back off briefly instead of spinning.
                    pause()
                    return
                }
            }
            admit(fd, peer: raw.socketAddress(unixPath: address.family == .unix ? address.host : ""))
        }
    }

    private func admit(_ fd: Int32, peer: SocketAddress) {
        let state = loop.state
        guard activeCount < limits.maxConnections, (sharedCount?.count ?? 0) < limits.maxConnections else {
            refuse(fd, peer: peer)
            handler.connectionRejected(from: peer, by: self)
            return
        }
        if peer.family != .unix { configureTCP(fd) }
        let connection = Connection(fileDescriptor: fd, peer: peer, listener: self, id: state.makeConnectionID(),
                                    isRejection: false)
        do {
            try connection.start()
        } catch {
            Sys.close(fd)
            return
        }
        activeCount += 1
        sharedCount?.count += 1
        handler.connectionOpened(connection)
    }

    /// Sends the `busy` line and closes gracefully (bounded, see ``maxRejecting``).
    private func refuse(_ fd: Int32, peer: SocketAddress) {
        // A plaintext line on a TLS port would be garbage to the client
        // (and a handshake per refusal is what a flood wants): just close.
        guard let reply = limits.busyReply, streamLayerFactory == nil else {
            Sys.close(fd)
            return
        }
        if rejectingCount < Self.maxRejecting {
            let connection = Connection(fileDescriptor: fd, peer: peer, listener: self,
                                        id: loop.state.makeConnectionID(), isRejection: true)
            do {
                try connection.start()
            } catch {
                Sys.close(fd)
                return
            }
            rejectingCount += 1
            connection.output.append(OutputSegment(reply))
            connection.apply(connection.lifecycle.close(.closedByHost, afterFlush: true, outputPending: true))
        } else {
            _ = send(fd, reply.bytes.baseAddress, reply.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            Sys.close(fd)
        }
    }

    /// Low latency for small request/reply lines (no Nagle delay), the
    /// kernel's unsent bytes capped at the backpressure mark (its send buffer
    /// grows to 4 MB for a peer that does not read, all of it answered before
    /// the host's own queue ever fills), and keepalive so a vanished device
    /// frees its slot.
    private func configureTCP(_ fd: Int32) {
        try? Sys.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1, "TCP_NODELAY")
        if let high = limits.outputHighWater {
            try? Sys.setOption(fd, Int32(IPPROTO_TCP), TCP_NOTSENT_LOWAT, Int32(clamping: high), "TCP_NOTSENT_LOWAT")
        }
        guard let idle = limits.keepAliveIdle else { return }
        let seconds = Int32(clamping: idle.components.seconds)
        try? Sys.setOption(fd, SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE")
        try? Sys.setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, seconds, "TCP_KEEPIDLE")
        try? Sys.setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, 10, "TCP_KEEPINTVL")
        try? Sys.setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, 3, "TCP_KEEPCNT")
    }

    /// Out of descriptors: close the reserve, accept and close one waiting
    /// connection (so the listener stops being readable), take the reserve back.
    private func shedWithReserve() -> Bool {
        let state = loop.state
        guard state.reserveFD >= 0 else { return false }
        Sys.close(state.reserveFD)
        let fd = accept4(fileDescriptor, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
        if fd >= 0 {
            if let reply = limits.busyReply {
                _ = send(fd, reply.bytes.baseAddress, reply.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            Sys.close(fd)
        }
        state.reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return fd >= 0
    }

    /// Stops watching the listener for 100 ms (resource exhaustion), so a
    /// level-triggered readiness that cannot be served does not spin.
    private func pause() {
        guard pauseTimer == nil, listening else { return }
        loop.state.modify(fileDescriptor, token: token, events: 0)
        pauseTimer = loop.schedule(after: .milliseconds(100)) { [self] in
            pauseTimer = nil
            if listening { loop.state.modify(fileDescriptor, token: token, events: EpollBits.readable) }
        }
    }
}

/// The connections of several listeners, counted together against one
/// ``ConnectionLimits/maxConnections``. Loop-confined, as the listeners are.
package final class SharedConnectionCount {
    /// Connections holding a slot now, across the listeners that share this.
    package internal(set) var count = 0

    /// Makes one; give it to each listener's ``Listener/sharedCount``.
    package init() {}
}
