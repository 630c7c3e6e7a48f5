@testable import DeckWeb
import Testing

/// Which `Host` names can only mean this machine (a loopback peer under any
/// other name needs a token: DNS rebinding).
@Suite struct PageHostTests {
    @Test(arguments: [
        ("127.0.0.1:7532", "127.0.0.1"), ("LOCALHOST", "localhost"), ("localhost.:80", "localhost"),
        ("[::1]:7532", "::1"), ("Deck.Example:8080", "deck.example"), ("deck.example", "deck.example"),
    ])
    func theNameWithoutPortBracketsOrTrailingDot(_ header: String, _ name: String) {
        #expect(PageHost(header: header)?.name == name)
    }

    @Test(arguments: [nil, "", "  ", "[::1", ":7532"])
    func noName(_ header: String?) {
        #expect(PageHost(header: header) == nil)
    }

    @Test(arguments: ["localhost", "deck.localhost", "127.0.0.1", "127.255.0.9", "[::1]", "[0:0:0:0:0:0:0:1]:80",
                      "[::ffff:127.0.0.1]", "vm", "vm.local", "VM.example.net", "vm.example.net.local"])
    func namesOfThisMachine(_ name: String) {
        #expect(PageHost(header: name)?.isThisMachine(hostName: "vm.example.net") == true, "\(name)")
    }

    @Test(arguments: ["evil.example", "localhost.evil.example", "128.0.0.1", "192.0.2.2", "[::2]", "[::ffff:10.0.0.1]",
                      "vmx", "example.net", "localhostx"])
    func otherNames(_ name: String) {
        #expect(PageHost(header: name)?.isThisMachine(hostName: "vm.example.net") == false, "\(name)")
    }

    @Test func noHostNameMeansOnlyLoopbackNames() {
        #expect(PageHost(header: "vm")?.isThisMachine(hostName: "") == false)
        #expect(PageHost(header: "localhost")?.isThisMachine(hostName: "") == true)
    }
}
