internal import CLinux
import Glibc

extension EventLoop {
    /// Starts listening on `endpoint` and returns the listener; its
    /// connections are reported to `handler`. Call on the loop's thread.
    ///
    /// - TCP (`.tcp`): IPv4 or IPv6, SO_REUSEADDR, port 0 for any free port
    ///   (read the real one from ``Listener/address``). `[::]` serves IPv6 and
    ///   IPv4 (dual stack); a specific IPv6 address serves IPv6 only.
    /// - Unix (`.unix`): the socket file is made mode 0600 inside a folder
    ///   that must be private (the rules are in docs/transport.md): a missing
    ///   folder is created 0700; an existing one must be a real folder that
    ///   belongs to this user and is closed to group and others. A socket file left by a
    ///   crashed process is replaced; one a live process serves is left alone
    ///   and ``TransportError/anotherHostListening(path:)`` is thrown.
    public func listen(on endpoint: Endpoint, limits: ConnectionLimits = ConnectionLimits(),
                       handler: any ConnectionHandler) throws(TransportError) -> Listener {
        preconditionInLoop()
        try limits.validate()
        if state.stopping { throw .loopStopped }
        let listener: Listener
        switch endpoint {
        case let .tcp(host, port):
            let (fd, address) = try Self.bindTCP(host: host, port: port)
            listener = Listener(fileDescriptor: fd, address: address, limits: limits, handler: handler, loop: self,
                                unixSocket: nil)
        case let .unix(path):
            let (fd, file) = try UnixSocketFile.bind(path: path)
            listener = Listener(fileDescriptor: fd, address: SocketAddress(family: .unix, host: path, port: 0),
                                limits: limits, handler: handler, loop: self, unixSocket: file)
        }
        try listener.start()
        return listener
    }

    private static func bindTCP(host: String, port: Int) throws(TransportError) -> (Int32, SocketAddress) {
        let display = Endpoint.tcp(host: host, port: port).description
        guard (0...65535).contains(port) else {
            throw .invalidAddress(display, reason: "the port must be a number from 0 to 65535")
        }
        let raw = try RawSocketAddress.resolve(host: host, port: port)[0]
        let fd = try Sys.streamSocket(family: raw.family, "listening on \(display)")
        do throws(TransportError) {
            try Sys.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
            if raw.family == AF_INET6 {
                // The wildcard serves IPv4 too; a specific address only itself.
                let wildcard = raw.socketAddress().host == "::"
                try Sys.setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, wildcard ? 0 : 1, "IPV6_V6ONLY")
            }
            if raw.withSockaddr({ bind(fd, $0, $1) }) != 0 {
                if errno == EADDRINUSE { throw .addressInUse(display) }
                throw .lastSystemError("listen on \(display)")
            }
            if Glibc.listen(fd, SOMAXCONN) != 0 { throw .lastSystemError("listen on \(display)") }
            return (fd, try RawSocketAddress.local(of: fd).socketAddress())
        } catch {
            Sys.close(fd)
            throw error
        }
    }
}
