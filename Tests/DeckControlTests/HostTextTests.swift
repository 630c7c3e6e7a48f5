@testable import DeckControl
import DeckProtocol
import Testing

@Suite("Plain text of the host's replies")
struct HostTextTests {
    static let status = HostStatus(
        host: HostInfo(version: "0.1.0"), profile: "default", revision: 14, locked: false,
        clients: [ClientInfo(name: "김의 아이폰", kind: "phone", address: "192.168.1.20:53422", protocolLevel: 7),
                  ClientInfo(name: "deckctl", kind: "control", address: "control", protocolLevel: 7)],
        profiles: ["default", "streaming"],
        problems: [Problem(file: "broken.yaml", line: 9, column: 7, message: "unknown key 'nmae' in button")],
        notices: ["newest snapshot 42 of 'default' was corrupt; resumed generation 41"],
        plugins: [PluginStatus(id: "counter", state: "running")])

    @Test func status() {
        #expect(HostText.status(Self.status) == [
            "host:      deckd 0.1.0 (protocol 8, clients from level 1)",
            "profile:   default, revision 14",
            "lock:      unlocked",
            "profiles:  default, streaming",
            "clients:   2 connected",
            "  김의 아이폰  phone    192.168.1.20:53422  protocol 7",
            "  deckctl      control  control             protocol 7",
            "problems:  1",
            "  broken.yaml:9:7: unknown key 'nmae' in button",
            "tls:       off (plain TCP and HTTP)",
            "notices:",
            "  newest snapshot 42 of 'default' was corrupt; resumed generation 41",
            "plugins:",
            "  counter  running",
        ])
    }

    @Test func statusShowsTheCertificateFingerprintWithTLS() {
        var secure = Self.status
        secure.tlsFingerprint = String(repeating: "ab", count: 32)
        #expect(HostText.status(secure).contains("tls:       on, certificate SHA-256 " + String(repeating: "ab", count: 32)))
    }

    @Test func devicesLeaveControlConnectionsToACount() {
        #expect(HostText.devices(Self.status) == [
            "김의 아이폰  phone  192.168.1.20:53422  protocol 7",
            "1 control connection (deckctl and scripts, this one included)",
        ])
        var alone = Self.status
        alone.clients = [alone.clients[1]]
        #expect(HostText.devices(alone) == ["no devices are connected", "1 control connection (deckctl and scripts, this one included)"])
    }

    @Test func profilesMarkTheLiveOne() {
        #expect(HostText.profiles(active: "default", [
            ProfileInfo(name: "default", file: "default.yaml", pages: 3, buttons: 10),
            ProfileInfo(name: "streaming", file: "streaming.yaml", pages: 1, buttons: 1),
        ]) == [
            "* default    default.yaml    3 pages  10 buttons",
            "  streaming  streaming.yaml   1 page    1 button",
        ])
        #expect(HostText.profiles(active: "x", []) == ["no profiles in the layouts folder"])
    }

    @Test func snapshotsNewestFirstAsGiven() {
        #expect(HostText.snapshots(profile: "default", [
            SnapshotInfo(generation: 42, revision: 57, time: "2026-11-29T16:40:00Z", reason: "moveButton", bytes: 812),
            SnapshotInfo(generation: 9, revision: 8, time: "2026-11-28T09:00:00Z", reason: "load", bytes: 1024),
        ]) == [
            "snapshots of 'default', newest first:",
            "generation  revision  time                  reason            size",
            "        42        57  2026-11-29T16:40:00Z  moveButton   812 bytes",
            "         9         8  2026-11-28T09:00:00Z  load        1024 bytes",
        ])
        #expect(HostText.snapshots(profile: nil, []) == ["no snapshots of the live profile yet"])
    }
}

/// `deckctl pair` on a loopback web listener says the link opens here only (a newcomer's audit).
@Suite struct PairingLinkHostTests {
    @Test(arguments: [("http://127.0.0.1:7532/#pair=AB12-CD34", true), ("https://localhost:7532/#pair=X", true),
                      ("http://[::1]:7532/#pair=X", true), ("https://192.168.1.5:7532/#pair=X&fp=AA", false),
                      ("https://deck.local/#pair=X", false), ("http://127.0.0.1.example/#pair=X", false),
                      ("https://[fe80::1]:7532/#pair=X", false), ("no link", false)])
    func aLoopbackLinkIsSaidToOpenHereOnly(_ link: String, _ here: Bool) {
        #expect(Deckctl.opensHereOnly(link) == here)
    }
}
