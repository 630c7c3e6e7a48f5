import DeckTestSupport
import Foundation
import Glibc
import Testing
@testable import DeckTransport

/// Whether this machine can bind the IPv6 loopback address.
let hasIPv6Loopback: Bool = {
    let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    guard let address = try? RawSocketAddress.resolve(host: "::1", port: 0).first else { return false }
    return address.withSockaddr { bind(fd, $0, $1) } == 0
}()

@Suite("sockets")
struct SocketTests {
    @Test func everyDescriptorIsCloseOnExec() throws {
        let temp = try TemporaryDirectory(prefix: "cloexec")
        let tcp = try TestServer.start()
        defer { tcp.stop() }
        let unix = try TestServer.start(.unix(path: temp.appending("c.sock").path))
        defer { unix.stop() }
        let tcpClient = try tcp.client()
        let unixClient = try unix.client()
        _ = try tcpClient.roundTrip("x")
        _ = try unixClient.roundTrip("x")
        for server in [tcp, unix] {
            let descriptors = try server.loop.sync {
                let listener = server.listener.value
                let connections = server.handler.value.connections.values.map(\.fileDescriptor)
                return [server.loop.epollFD, server.loop.wakeFD, server.loop.state.reserveFD, listener.fileDescriptor,
                        listener.unixSocket?.lockFD.load(ordering: .relaxed) ?? listener.fileDescriptor] + connections
            }
            #expect(descriptors.count == 6)
            for fd in descriptors { #expect(Sys.isCloseOnExec(fd), "descriptor \(fd) would leak into child processes") }
        }
        #expect(Sys.isCloseOnExec(tcpClient.fileDescriptor))
        #expect(Sys.isCloseOnExec(unixClient.fileDescriptor))
    }

    @Test func portZeroReportsTheRealPortAndATakenPortIsReported() throws {
        let first = try TestServer.start()
        defer { first.stop() }
        #expect(first.address.port > 0)
        #expect(first.endpoint == .tcp(host: "127.0.0.1", port: first.address.port))
        let loop = try EventLoop.spawn()
        defer { loop.stop(); loop.waitUntilStopped() }
        #expect(throws: TransportError.addressInUse("127.0.0.1:\(first.address.port)")) {
            try loop.sync {
                _ = try loop.listen(on: .tcp(host: "127.0.0.1", port: first.address.port),
                                    handler: TestHandler(log: EventLog(), behavior: Behaviors.echo))
            }
        }
    }

    @Test(.enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback (::1) to bind"))
    func ipv6LoopbackListener() throws {
        let server = try TestServer.start(.tcp(host: "::1", port: 0))
        defer { server.stop() }
        #expect(server.address.family == .ipv6 && server.address.host == "::1" && server.address.port > 0)
        let client = try server.client()
        #expect(try client.roundTrip("over v6") == "over v6")
        let peer = try server.onLoop { $0.connections.values.first?.peer }
        #expect(peer?.family == .ipv6)
        #expect(peer?.host == "::1")
        #expect(peer?.isLoopback == true)
    }

    @Test(.enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback (::1) to bind"))
    func dualStackWildcardSeesIPv4PeersAsIPv4() throws {
        let server = try TestServer.start(.tcp(host: "::", port: 0))
        defer { server.stop() }
        let client = try LineClient(connectingTo: .tcp(host: "127.0.0.1", port: server.address.port))
        #expect(try client.roundTrip("mapped") == "mapped")
        let peer = try server.onLoop { $0.connections.values.first?.peer }
        #expect(peer?.family == .ipv4, "::ffff:127.0.0.1 is reported as the IPv4 address it is")
        #expect(peer?.host == "127.0.0.1")
        #expect(peer?.isLoopback == true)
    }

    @Test func clientRefusedConnectionSaysNothingListens() throws {
        // A port that was just free: bind, read the number, close.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let any = try RawSocketAddress.resolve(host: "127.0.0.1", port: 0)[0]
        _ = any.withSockaddr { bind(fd, $0, $1) }
        let port = try RawSocketAddress.local(of: fd).socketAddress().port
        close(fd)
        #expect(throws: TransportError.connectFailed(endpoint: "127.0.0.1:\(port)", errno: ECONNREFUSED)) {
            _ = try LineClient(connectingTo: .tcp(host: "127.0.0.1", port: port))
        }
    }

    @Test func clientReadTimesOutWhenNoLineComes() throws {
        let server = try TestServer.start { _, _, _ in }
        defer { server.stop() }
        let client = try server.client()
        try client.send("no answer")
        #expect(throws: TransportError.timedOut(operation: "waiting for a line from \(server.endpoint)", after: .milliseconds(100))) {
            _ = try client.readLine(timeout: .milliseconds(100))
        }
    }

    @Test func clientLimitsWhatItBuffers() throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let client = try server.client()
        client.maxLineBytes = 1000
        try client.send(String(repeating: "l", count: 100_000))
        #expect(throws: TransportError.lineTooLong(limit: 1000)) { _ = try client.readLine() }
        #expect(throws: TransportError.lineContainsNewline) { try client.send("two\nlines") }
        // Nothing was lost: with a larger limit the same line reads whole.
        client.maxLineBytes = 1 << 20
        #expect(try client.readLine().count == 100_000)
        #expect(try client.roundTrip("with its LF\n") == "with its LF")
    }

    @Test func clientSeesTheServerCloseAsClosed() throws {
        let server = try TestServer.start { connection, _, _ in connection.close() }
        defer { server.stop() }
        let client = try server.client()
        try client.send("close me")
        #expect(throws: TransportError.connectionClosed) { _ = try client.readLine() }
    }
}
