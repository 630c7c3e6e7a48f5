import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

@Suite("codec round trips")
struct RoundTripTests {
    static let requests: [ClientRequest] = [
        .hello(Hello(protocolLevel: 7, device: Device(name: "Kim's iPhone", kind: "phone"), token: "t0k3n")),
        .hello(Hello(protocolLevel: 3, device: Device(name: "ctl", kind: "control"))),
        .hello(Hello(protocolLevel: 7, device: Device(name: "browser", kind: "phone"), pairingCode: "K7Q2-9XMD")),
        .setButton(page: 0, index: 1, button: Sample.files),
        .setFace(page: 0, index: 2, state: "muted", title: "t", clear: true),
        .setButton(page: 2, index: 11, button: Sample.mute),
        .clearButton(page: 0, index: 1, expecting: nil),
        .clearButton(page: 0, index: 1, expecting: Sample.build),
        .moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 0, button: Sample.next),
        .press(page: 0, index: 0, button: nil, phase: .tap),
        .press(page: 0, index: 0, button: Sample.files, phase: .down),
        .press(page: 1, index: 3, button: nil, phase: .up),
        .ping, .status, .lock, .unlock, .reload,
        .useProfile(name: "streaming"), .profiles,
        .snapshots(profile: nil), .snapshots(profile: "default"),
        .restore(generation: 41),
        .export(profile: nil), .export(profile: "default"),
        .pair(name: "Kim's iPad"), .unpair(name: "Kim's iPad"), .subscribe, .restartPlugin(id: "counter"),
        .restartPlugin(id: "keys", reset: true), .devices,
    ]

    @Test func everyRequestKindIsCovered() {
        #expect(Set(Self.requests.map(\.kind)) == Set(RequestKind.allCases))
    }

    @Test(arguments: requests)
    func clientMessageRoundTrip(_ request: ClientRequest) throws {
        for id: RequestID? in [nil, 7, "req-é\"1"] {
            let message = ClientMessage(id: id, request)
            let line = message.line()
            try expectOneValidLine(line)
            #expect(try ClientMessage.decode(line) == message)
            #expect(try ClientMessage.decode(line.dropLast()) == message, "without its newline")
        }
    }

    static let events: [DeckEvent] = [
        .set(page: 0, index: 1, button: "Files", replaced: nil, revision: 14, by: Sample.kim),
        .set(page: 0, index: 1, button: "Files", replaced: "Old", revision: 15, by: nil),
        .clear(page: 0, index: 1, button: "Files", revision: 16, by: Sample.ctl),
        .clear(page: 0, index: 2, button: nil, revision: 16, by: Sample.kim),
        .move(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 0, button: "Files", swapped: nil, revision: 17, by: Sample.kim),
        .move(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 2, button: "A", swapped: "B", revision: 18, by: Sample.kim),
        .refused(request: "moveButton", code: .stale, message: "slot 0/1 no longer holds 'Files'", by: Sample.kim),
        .refused(request: "press", code: .locked, message: "the host is locked", by: nil),
        .press(page: 0, index: 1, button: "Files", phase: .tap, by: Sample.kim),
        .press(page: 0, index: 1, button: "Mic", phase: .down, by: Sample.kim),
        .action(page: 0, index: 1, button: "Build", action: "run", outcome: .exited(status: 2), by: Sample.kim),
        .action(page: 0, index: 1, button: "Build", action: "run", outcome: .signalled(signal: 9), by: nil),
        .action(page: 0, index: 1, button: "Build", action: "run", outcome: .timedOut(seconds: 0.5), by: Sample.kim),
        .action(page: 0, index: 1, button: "Build", action: "run", outcome: .timedOut(seconds: 600), by: Sample.kim),
        .action(page: 0, index: 0, button: "Files", action: "open", outcome: .openerMissing, by: Sample.kim),
        .action(page: 1, index: 3, button: "Mute", action: "plugin", outcome: .delivered, by: Sample.kim),
        .action(page: 1, index: 3, button: "Mute", action: "plugin", outcome: .pluginUnavailable(plugin: "audio"), by: Sample.kim),
        .action(page: 0, index: 4, button: "X", action: "run", outcome: .failed(reason: "cwd does not exist"), by: nil),
        .lock(locked: true, source: .manual, by: Sample.ctl),
        .lock(locked: false, source: .probe, by: nil),
        .join(client: Sample.kim),
        .leave(client: Sample.kim, reason: "tooLarge"),
        .reload(profile: "default", revision: 19, problems: [], by: nil),
        .reload(profile: "default", revision: nil, problems: [Sample.problem], by: Sample.ctl),
        .profile(profile: "streaming", revision: 20, by: Sample.ctl),
        .restore(profile: "default", generation: 41, revision: 21, by: Sample.ctl),
        .plugin(PluginStatus(id: "counter", state: "failed", message: "exited 5 times within a minute")),
        .unknown(kind: "fromTheFuture"),
    ]

    static var hostMessages: [HostMessage] {
        let status = HostStatus(
            host: Sample.host, profile: "default", revision: 12, locked: false,
            clients: [Sample.kim, Sample.ctl], profiles: ["default", "streaming"], problems: [Sample.problem],
            notices: ["newest snapshot 42 of 'default' was corrupt; resumed generation 41"],
            plugins: [PluginStatus(id: "counter", state: "running")])
        return [
            .welcome(id: 1, Welcome(protocolLevel: 7, host: Sample.host, profile: "default", revision: 12,
                                    locked: false, layout: Sample.layout())),
            .welcome(id: nil, Welcome(protocolLevel: 3, host: Sample.host, profile: "p", revision: 0,
                                      locked: true, layout: .empty(slotsPerPage: 1))),
            .welcome(id: 2, Welcome(protocolLevel: 7, host: Sample.host, profile: "p", revision: 1,
                                    locked: false, layout: .empty(slotsPerPage: 1), token: "paired-by-code")),
            .layout(profile: "default", revision: 14, layout: Sample.layout(slots: 6)),
            .layout(profile: "default", revision: 15, layout: Sample.layout(slots: 6),
                    holdSlots: [DeckSlot(page: 0, index: 2), DeckSlot(page: 1, index: 0)]),
            .welcome(id: 2, Welcome(protocolLevel: 7, host: Sample.host, profile: "default", revision: 15,
                                    locked: false, layout: Sample.layout(slots: 6), holdSlots: [DeckSlot(page: 0, index: 2)])),
            .lock(locked: true), .lock(locked: false),
            .ok(id: 3, revision: 14), .ok(id: "x", revision: nil), .ok(id: nil, revision: nil),
            .error(id: 3, code: .stale, message: "slot 0/1 no longer holds 'Files'"),
            .error(id: nil, code: .tooLarge, message: "line too long"),
            .error(id: 4, code: .invalid, message: "default.yaml has 1 problem", problems: [Sample.problem]),
            .pong(id: 5), .pong(id: nil),
            .showPage(page: 2),
            .buttonState(page: 1, index: 3, title: "Count: 3"), .buttonState(page: 1, index: 3, title: nil),
            .status(id: 6, status),
            .status(id: 6, HostStatus(host: Sample.host, profile: "default", revision: 0, locked: true)),
            .status(id: 6, HostStatus(host: Sample.host, profile: "default", revision: 0, locked: false,
                                      tlsFingerprint: String(repeating: "0f", count: 32))),
            .profiles(id: 7, active: "default", profiles: [
                ProfileInfo(name: "default", file: "default.yaml", pages: 3, buttons: 6),
                ProfileInfo(name: "streaming", file: "streaming.yml", pages: 2, buttons: 1),
            ]),
            .snapshots(id: 8, profile: "default", snapshots: [
                SnapshotInfo(generation: 42, revision: 57, time: "2026-11-29T16:40:00Z", reason: "moveButton", bytes: 812),
                SnapshotInfo(generation: 41, revision: 56, time: "2026-11-29T16:39:00Z", reason: "load", bytes: 800),
            ]),
            .snapshots(id: 8, profile: nil, snapshots: []),
            .export(id: 9, profile: "default", yaml: "name: default\npages:\n  - buttons:\n      0: {name: \"다음\", action: {page: next}}\n"),
            .paired(id: 10, name: "Kim's iPad", token: "3q2+7w=="),
            .paired(id: 11, name: "phone", token: "t", pairing: PairingOffer(code: "K7Q2-9XMD", link: "http://h:7532/#pair=K7Q2-9XMD",
                                                                             expires: "2026-12-01T22:00:00Z")),
            .paired(id: 12, name: "phone", token: "t", pairing: PairingOffer(code: "K7Q2-9XMD", link: nil, expires: "2026-12-01T22:00:00Z")),
            .devices(id: 13, [PairedDeviceInfo(name: "phone", pairedAt: "2026-12-01T21:00:00Z", lastSeen: nil, connected: false),
                              PairedDeviceInfo(name: "tab", pairedAt: "2026-12-01T21:00:00Z", lastSeen: "2026-12-01T21:30:00Z",
                                               connected: true)]),
            .devices(id: 14, []),
        ] + events.map(HostMessage.event)
    }

    @Test(arguments: hostMessages)
    func hostMessageRoundTrip(_ message: HostMessage) throws {
        let line = message.line()
        try expectOneValidLine(line)
        #expect(try HostMessage.decode(line) == message)
    }

    @Test func everyErrorCodeRoundTrips() throws {
        for code in ErrorCode.allCases {
            let message = HostMessage.error(id: "a", code: code, message: "m")
            #expect(try HostMessage.decode(message.line()) == message)
            #expect(text(message.line()).contains("\"code\":\"\(code.rawValue)\""))
        }
    }

    /// Our layout JSON and DeckModel's `Codable` JSON are the same language:
    /// each side reads what the other writes.
    @Test func layoutsAgreeWithTheModelsCodable() throws {
        var rng = SeededGenerator(seed: 11)
        for revision in 0..<200 {
            let layout = RandomLayouts.layout(maxPages: 5, slots: [12, 6, 1].randomElement(using: &rng)!, using: &rng)
            let message = HostMessage.layout(profile: "p", revision: revision, layout: layout)
            let line = message.line()
            #expect(try HostMessage.decode(line) == message)

            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            let layoutData = try JSONSerialization.data(withJSONObject: try #require(object["layout"]))
            #expect(try JSONDecoder().decode(DeckLayout.self, from: layoutData) == layout)

            let modelLine = #"{"type":"layout","profile":"p","revision":1,"layout":"#
                + String(decoding: try JSONEncoder().encode(layout), as: UTF8.self) + "}"
            guard case .layout(_, _, let decoded, _, _) = try HostMessage.decode(bytes(modelLine)) else {
                Issue.record("not a layout message")
                continue
            }
            #expect(decoded == layout)
        }
    }

    @Test func bigLayoutRoundTrips() throws {
        var rng = SeededGenerator(seed: 12)
        var pages: [DeckPage] = []
        for number in 0..<1_000 {
            pages.append(DeckPage(buttons: (0..<12).map { RandomLayouts.button(tag: number * 12 + $0, using: &rng) }))
        }
        let layout = try DeckLayout(slotsPerPage: 12, pages: pages)
        let message = HostMessage.layout(profile: "big", revision: 1, layout: layout)
        let line = message.line()
        try expectOneValidLine(line)
        #expect(try HostMessage.decode(line) == message)
    }

    /// A line is one JSON object that Foundation also accepts, ending in one
    /// `\n` with no other newline inside (names may hold "\n": it must be escaped).
    private func expectOneValidLine(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(line.last == 0x0A, sourceLocation: sourceLocation)
        #expect(line.dropLast().contains(0x0A) == false, sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(line))
        #expect(object is [String: Any], sourceLocation: sourceLocation)
    }
}
