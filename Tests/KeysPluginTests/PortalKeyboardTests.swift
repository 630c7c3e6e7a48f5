import Testing
@testable import KeysPlugin

/// The portal back end's main-thread side: what it hands the bus thread, with no bus.
@Suite struct PortalKeyboardTests {
    func keyboard(_ condition: PortalCondition = .ready(restored: true)) throws -> PortalKeyboard {
        let link = try PortalLink()
        link.condition = condition
        return PortalKeyboard(link: link)
    }

    func sent(_ keyboard: PortalKeyboard) -> [String] {
        keyboard.link.take().keys.map { ($0.pressed ? "+" : "-") + String($0.keysym, radix: 16) }
    }

    @Test func aChordGoesDownInOrderAndUpInReverse() throws {
        let keys = try keyboard()
        try keys.tap([KeyChord([0xFFE3, 0xFFE1, 0x74]), KeyChord([0xFFE3, 0x63])])
        #expect(sent(keys) == ["+ffe3", "+ffe1", "+74", "-74", "-ffe1", "-ffe3", "+ffe3", "+63", "-63", "-ffe3"])
    }

    @Test func holdsAreCountedSoATapNeverLiftsAHeldKey() throws {
        let keys = try keyboard()
        try keys.hold([KeyChord([0xFFE3])], for: ButtonKey(page: 0, index: 0))
        try keys.tap([KeyChord([0xFFE3, 0x63])])
        #expect(sent(keys) == ["+ffe3", "+63", "-63"])
        keys.release(ButtonKey(page: 0, index: 0))
        #expect(sent(keys) == ["-ffe3"])
        try keys.hold([KeyChord([0xFFE1])], for: ButtonKey(page: 0, index: 1))
        keys.releaseAll()
        #expect(sent(keys) == ["+ffe1", "-ffe1"])
    }

    @Test func textIsEachCharactersKeysymOrRefusedWhole() throws {
        let keys = try keyboard()
        try keys.type("é안✓")
        #expect(sent(keys) == ["+e9", "-e9", "+100c548", "-100c548", "+af3", "-af3"])
        #expect(throws: KeysError.untypable(character: "U+7", offset: 1)) { try keys.type("a\u{7}b") }
        #expect(sent(keys).isEmpty)
    }

    @Test(arguments: [PortalCondition.starting(restoring: false), .denied, .closed, .busLost("gone")])
    func nothingGoesOutUnlessTheSessionStarted(condition: PortalCondition) throws {
        let keys = try keyboard(condition)
        #expect(throws: condition.problem!) { try keys.tap([KeyChord([0x74])]) }
        #expect(throws: condition.problem!) { try keys.type("x") }
        #expect(sent(keys).isEmpty)
        #expect(keys.status == condition.status)
    }
}
