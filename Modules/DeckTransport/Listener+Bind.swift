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
        return try listen(adopting: BoundSocket(endpoint), limits: limits, handler: handler)
    }

    /// Listens on a socket bound earlier (see ``BoundSocket``), which this
    /// loop takes over: the listener closes it. Call on the loop's thread,
    /// once per socket. When this throws, the socket is closed by the time
    /// `socket` is released.
    public func listen(adopting socket: BoundSocket, limits: ConnectionLimits = ConnectionLimits(),
                       handler: any ConnectionHandler) throws(TransportError) -> Listener {
        preconditionInLoop()
        try limits.validate()
        if state.stopping { throw .loopStopped }
        guard let (fd, file) = socket.take() else {
            preconditionFailure("DeckTransport: a BoundSocket was adopted twice, or after its close()")
        }
        let listener = Listener(fileDescriptor: fd, address: socket.address, limits: limits, handler: handler, loop: self,
                                unixSocket: file)
        try listener.start()
        return listener
    }
}
