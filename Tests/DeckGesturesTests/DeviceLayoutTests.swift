import DeckGestures
import DeckModel
import Testing

/// The device's optimistic copy against a simulated host that runs the same
/// `DeckModel` edits: accepted, refused as stale, refused while locked.
@Suite("device layout reconciliation")
struct DeviceLayoutTests {
    let files = DeckButton(name: "Files", icon: "folder", action: .open("~"))
    let build = DeckButton(name: "Build", action: .run(command: "make"))
    let mail = DeckButton(name: "Mail", action: .open("mailto:a@b.c"))

    func hostLayout() throws -> DeckLayout {
        var layout = DeckLayout.empty()
        try layout.set(page: 0, index: 0, button: files)
        try layout.set(page: 0, index: 1, button: build)
        return layout
    }

    @Test func aDropChangesTheCopyAtOnceAndYieldsTheRequest() throws {
        var device = DeviceLayout(try hostLayout())
        let request = try #require(try device.drop(from: SlotID(page: 0, index: 0), to: SlotID(page: 1, index: 3)))
        #expect(request == MoveRequest(fromPage: 0, fromIndex: 0, toPage: 1, toIndex: 3, button: files))
        #expect(device.layout.button(page: 1, index: 3) == files)
        #expect(device.layout.button(page: 0, index: 0) == nil)
        #expect(device.layout.isNormal)
        #expect(try device.drop(from: SlotID(page: 0, index: 1), to: SlotID(page: 0, index: 1)) == nil)
    }

    @Test func hostAccepts() throws {
        var host = try hostLayout()
        var device = DeviceLayout(host)
        let request = try #require(try device.drop(from: SlotID(page: 0, index: 0), to: SlotID(page: 0, index: 1)))
        try host.move(fromPage: request.fromPage, fromIndex: request.fromIndex, toPage: request.toPage,
                      toIndex: request.toIndex, expecting: request.button)
        let optimistic = device.layout
        device.receive(hostLayout: host)
        #expect(device.layout == optimistic, "the host computed what the device drew")
    }

    @Test func hostRefusesAsStale() throws {
        var host = try hostLayout()
        var device = DeviceLayout(host)
        // Another device replaced Files before this device's move arrived.
        try host.set(page: 0, index: 0, button: mail)
        let request = try #require(try device.drop(from: SlotID(page: 0, index: 0), to: SlotID(page: 0, index: 5)))
        #expect(throws: DeckModelError.stale(page: 0, index: 0, expected: "Files")) {
            try host.move(fromPage: request.fromPage, fromIndex: request.fromIndex, toPage: request.toPage,
                          toIndex: request.toIndex, expecting: request.button)
        }
        device.receive(hostLayout: host)
        #expect(device.layout == host)
        #expect(device.layout.button(page: 0, index: 0) == mail)
        #expect(device.layout.button(page: 0, index: 5) == nil)
    }

    @Test func hostLockedSendsItsUnchangedLayoutBack() throws {
        let host = try hostLayout()
        var device = DeviceLayout(host)
        _ = try device.drop(from: SlotID(page: 0, index: 1), to: SlotID(page: 0, index: 7))
        #expect(device.layout != host)
        // Locked: the host changes nothing and sends its layout to the refused device.
        device.receive(hostLayout: host)
        #expect(device.layout == host)
    }

    @Test func anEmptySourceOrAMissingSlotChangesNothing() throws {
        var device = DeviceLayout(try hostLayout())
        let before = device.layout
        #expect(throws: DeckGesturesError.emptySource(SlotID(page: 0, index: 9))) {
            try device.drop(from: SlotID(page: 0, index: 9), to: SlotID(page: 0, index: 2))
        }
        #expect(throws: DeckGesturesError.self) {
            try device.drop(from: SlotID(page: 0, index: 0), to: SlotID(page: 7, index: 2))
        }
        #expect(device.layout == before)
    }
}
