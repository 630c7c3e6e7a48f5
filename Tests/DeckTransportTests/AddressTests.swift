import Foundation
import Glibc
import Testing
@testable import DeckTransport

@Suite("addresses")
struct AddressTests {
    @Test(arguments: [
        ("127.0.0.1:7531", "127.0.0.1", 7531),
        ("0.0.0.0:0", "0.0.0.0", 0),
        ("[::1]:7531", "::1", 7531),
        ("[::]:65535", "::", 65535),
        ("localhost:80", "localhost", 80),
    ])
    func parsesHostAndPort(text: String, host: String, port: Int) throws {
        #expect(try Endpoint(tcp: text) == .tcp(host: host, port: port))
    }

    @Test(arguments: ["7531", ":7531", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:80x",
                      "::1:7531", "[::1]7531", "[::1:7531", "host:+80", "127.0.0.1:٣"])
    func refusesWhatIsNotHostPort(text: String) {
        #expect(throws: TransportError.self) { try Endpoint(tcp: text) }
    }

    @Test func descriptionsRoundTrip() throws {
        #expect(Endpoint.tcp(host: "::1", port: 9).description == "[::1]:9")
        #expect(try Endpoint(tcp: Endpoint.tcp(host: "::1", port: 9).description) == .tcp(host: "::1", port: 9))
        #expect(SocketAddress(family: .ipv6, host: "::1", port: 9).description == "[::1]:9")
        #expect(SocketAddress(family: .ipv4, host: "10.0.0.2", port: 9).description == "10.0.0.2:9")
    }

    @Test func loopbackRules() {
        #expect(SocketAddress(family: .ipv4, host: "127.0.0.1", port: 1).isLoopback)
        #expect(SocketAddress(family: .ipv4, host: "127.200.3.4", port: 1).isLoopback)
        #expect(!SocketAddress(family: .ipv4, host: "10.0.0.1", port: 1).isLoopback)
        #expect(!SocketAddress(family: .ipv4, host: "128.0.0.1", port: 1).isLoopback)
        #expect(SocketAddress(family: .ipv6, host: "::1", port: 1).isLoopback)
        #expect(!SocketAddress(family: .ipv6, host: "fe80::1", port: 1).isLoopback)
        #expect(SocketAddress(family: .unix, host: "/run/x.sock", port: 0).isLoopback)
    }

    /// Builds the kernel form of an IPv6 address and reads it back.
    private func ipv6(_ text: String, port: UInt16) -> SocketAddress {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        _ = inet_pton(AF_INET6, text, &address.sin6_addr)
        var raw = RawSocketAddress()
        withUnsafeMutableBytes(of: &raw.storage) { room in withUnsafeBytes(of: address) { room.copyMemory(from: $0) } }
        raw.length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        return raw.socketAddress()
    }

    @Test func ipv4MappedLoopbackIsReportedAsIPv4Loopback() {
        let mapped = ipv6("::ffff:127.0.0.1", port: 5000)
        #expect(mapped == SocketAddress(family: .ipv4, host: "127.0.0.1", port: 5000))
        #expect(mapped.isLoopback)
        let remote = ipv6("::ffff:192.168.1.20", port: 5000)
        #expect(remote.family == .ipv4 && !remote.isLoopback)
        #expect(ipv6("::1", port: 1) == SocketAddress(family: .ipv6, host: "::1", port: 1))
        #expect(!ipv6("2001:db8::1", port: 1).isLoopback)
    }

    @Test func unixPathsThatDoNotFit() {
        #expect(throws: TransportError.pathTooLong(path: String(repeating: "a", count: 108), limit: 107)) {
            _ = try RawSocketAddress.unix(path: String(repeating: "a", count: 108))
        }
        #expect(throws: TransportError.self) { _ = try RawSocketAddress.unix(path: "") }
    }

    @Test func outboundLinesGetTheirLFAndRefuseInnerOnes() throws {
        let line = try OutboundLine("{\"type\":\"ok\"}")
        #expect(line.count == 14)
        #expect(line.data.last == 0x0A)
        #expect(try OutboundLine("").count == 1)
        // An encoder's line that already ends in LF is taken as it is.
        let encoded = try OutboundLine(Array("{\"type\":\"ok\"}\n".utf8))
        #expect(encoded.data == line.data)
        #expect(try OutboundLine("\n").count == 1)
        #expect(throws: TransportError.lineContainsNewline) { try OutboundLine("a\nb") }
        #expect(throws: TransportError.lineContainsNewline) { try OutboundLine(Array("x\n\n".utf8)) }
        #expect(throws: TransportError.lineContainsNewline) { try OutboundLine(Data("\nx".utf8)) }
    }

    @Test func errorsAreSentences() {
        #expect(TransportError.anotherHostListening(path: "/run/d/c.sock").description
            == "another host is listening on /run/d/c.sock; stop it first or choose another socket path")
        #expect(TransportError.connectFailed(endpoint: "127.0.0.1:1", errno: ECONNREFUSED).description
            .contains("is the host running?"))
        #expect(TransportError.addressInUse("127.0.0.1:7531").description.contains("already in use"))
    }
}
