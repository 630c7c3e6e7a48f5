internal import CLinux
import Glibc
import Synchronization

/// A listening socket bound before an event loop takes it over.
///
/// Binding first lets a program claim its addresses before it does anything
/// else, and stop having changed nothing when one is taken: deckd binds its
/// control socket and TCP port before it touches its state folder, so a
/// second deckd on the same socket writes no snapshot. Connections that
/// arrive before the loop adopts the socket wait in the kernel's queue.
///
/// Binding follows the rules of ``EventLoop/listen(on:limits:handler:)``;
/// ``EventLoop/listen(adopting:limits:handler:)`` takes the socket over. One
/// that is never adopted is closed when released: its Unix socket file is
/// removed and its lock let go. Any thread may bind it; the loop that
/// adopts it owns it from then on.
public final class BoundSocket: Sendable {
    /// The address actually bound (with the real port when 0 was asked for).
    public let address: SocketAddress
    /// The listening descriptor and its socket file until a listener takes them.
    private let claim: Mutex<Claim?>

    private struct Claim: Sendable {
        var fileDescriptor: Int32
        var unixSocket: UnixSocketFile?
    }

    /// Binds and listens on `endpoint`.
    ///
    /// - Throws: ``TransportError/anotherHostListening(path:)`` when a live
    ///   process serves the Unix socket (it is left alone),
    ///   ``TransportError/addressInUse(_:)`` for a taken TCP address, and the
    ///   other errors of ``EventLoop/listen(on:limits:handler:)``.
    public init(_ endpoint: Endpoint) throws(TransportError) {
        switch endpoint {
        case let .tcp(host, port):
            let (fd, bound) = try Self.bindTCP(host: host, port: port)
            address = bound
            claim = Mutex(Claim(fileDescriptor: fd, unixSocket: nil))
        case let .unix(path):
            let (fd, file) = try UnixSocketFile.bind(path: path)
            address = SocketAddress(family: .unix, host: path, port: 0)
            claim = Mutex(Claim(fileDescriptor: fd, unixSocket: file))
        }
    }

    deinit { close() }

    /// Closes the socket and removes its Unix socket file, unless a loop took it over.
    public func close() {
        guard let (fd, file) = take() else { return }
        Sys.close(fd)
        file?.remove()
    }

    /// Hands the descriptor and the socket file to a listener, once; nil
    /// when they were already taken or closed.
    func take() -> (Int32, UnixSocketFile?)? {
        claim.withLock { claim in
            defer { claim = nil }
            return claim.map { ($0.fileDescriptor, $0.unixSocket) }
        }
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
