import Testing
@testable import DeckHost
import DeckTransport

/// What pairing links and `status` say about how the host is reached (WEB.md §3), without sockets.
@Suite("Reachability: the web listener's address and the certificate")
struct ReachabilityTests {
    static let web = SocketAddress(family: .ipv4, host: "192.168.1.20", port: 7532)

    @Test func withoutAWebListenerThereIsNoLink() {
        let reachability = Reachability(webAddress: nil, fingerprint: { "ab" })
        #expect(reachability.pairingLink("ABCD-EFGH", base: "https://deck.example") == nil)
    }

    @Test func theListenersAddressOverHTTPWithoutTLS() {
        let reachability = Reachability(webAddress: Self.web)
        #expect(reachability.fingerprint() == nil)
        #expect(reachability.pairingLink("ABCD-EFGH", base: nil) == "http://192.168.1.20:7532/#pair=ABCD-EFGH")
    }

    @Test func underTLSTheLinkIsHTTPSAndCarriesTheFingerprintAskedEachTime() {
        var served = "aa11"
        let reachability = Reachability(webAddress: Self.web, fingerprint: { served })
        #expect(reachability.pairingLink("ABCD-EFGH", base: nil) == "https://192.168.1.20:7532/#pair=ABCD-EFGH&fp=aa11")
        served = "bb22"  // a SIGHUP loaded a new certificate
        #expect(reachability.pairingLink("ABCD-EFGH", base: "https://deck.example/")
            == "https://deck.example/#pair=ABCD-EFGH&fp=bb22")
    }
}
