import KeysPlugin
import Testing

/// A small US-like map: keycode 10 = [a, A], 11 = [1, exclam], 12 = Shift_L,
/// 13 = Control_L, 14 and 15 spare (no symbols).
func smallMap() -> KeyboardMap {
    KeyboardMap(minimumKeycode: 10, keysymsPerKeycode: 2,
                keysyms: [0x61, 0x41, 0x31, 0x21, 0xFFE1, 0, 0xFFE3, 0, 0, 0, 0, 0])
}

@Suite struct KeyPlannerTests {
    @Test func aChordPressesInOrderAndReleasesInReverse() throws {
        var planner = KeyPlanner(map: smallMap())
        let steps = try planner.tap([KeyChord([0xFFE3, 0xFFE1, 0x61])])
        #expect(steps == [.down(13), .down(12), .down(10), .up(10), .up(12), .up(13)])
        #expect(planner.held.keycodes.isEmpty)
    }

    @Test func levelTwoSymbolsAddShift() throws {
        var planner = KeyPlanner(map: smallMap())
        #expect(try planner.type("A!a") == [.down(12), .down(10), .up(10), .up(12),
                                            .down(12), .down(11), .up(11), .up(12), .down(10), .up(10)])
    }

    @Test func symbolsOffTheMapBorrowASpareUntilRestored() throws {
        var planner = KeyPlanner(map: smallMap())
        let steps = try planner.type("é안é")
        #expect(steps == [.remap(15, 0xE9), .down(15), .up(15), .remap(14, 0x100C548), .down(14), .up(14),
                          .down(15), .up(15)])
        #expect(planner.restoreSpares() == [.remap(15, 0), .remap(14, 0)])
        #expect(planner.map == smallMap())
    }

    @Test func aThirdSymbolReusesTheOldestSpareAfterASettle() throws {
        var planner = KeyPlanner(map: smallMap())
        let steps = try planner.type("éüß")
        #expect(steps.suffix(4) == [.settle, .remap(15, 0xDF), .down(15), .up(15)])
    }

    @Test func holdsAreCountedSoATapNeverLiftsAHeldKey() throws {
        var planner = KeyPlanner(map: smallMap())
        let held = try planner.hold(KeyChord([0xFFE3]))
        #expect(held.steps == [.down(13)])
        #expect(try planner.tap([KeyChord([0xFFE3, 0x61])]) == [.down(10), .up(10)])
        #expect(planner.release(held.keycodes) == [.up(13)])
    }

    @Test func releasingEverythingLiftsAKeyTwoHoldsShare() throws {
        var planner = KeyPlanner(map: smallMap())
        _ = try planner.hold(KeyChord([0xFFE3]))
        _ = try planner.hold(KeyChord([0xFFE3, 0x61]))
        #expect(planner.releaseAll() == [.up(13), .up(10)])
        #expect(planner.held.keycodes.isEmpty)
    }

    @Test func aRemapSomeoneElseUndidIsNotRestored() throws {
        var planner = KeyPlanner(map: smallMap())
        _ = try planner.type("é")
        var changed = smallMap()
        changed.assign(0x7A, to: 15)  // a new layout put z on the spare
        planner.refresh(changed)
        #expect(planner.restoreSpares().isEmpty)
    }

    @Test func anotherActiveGroupTypesThroughSpares() throws {
        var planner = KeyPlanner(map: smallMap())
        planner.refresh(smallMap(), firstGroupActive: false)
        #expect(try planner.type("a").first == .remap(15, 0x61))
        #expect(try planner.tap([KeyChord([0xFFE3, 0x61])]).first == .down(13))
    }

    @Test func textOverTheLimitIsRefusedWholly() {
        var planner = KeyPlanner(map: smallMap())
        let text = String(repeating: "a", count: KeysLimits.maximumTextCharacters + 1)
        #expect(throws: KeysError.textTooLong(characters: KeysLimits.maximumTextCharacters + 1)) {
            try planner.type(text)
        }
        #expect(planner.held.keycodes.isEmpty)
    }

    @Test func noSpareLeftIsAnError() throws {
        let full = KeyboardMap(minimumKeycode: 10, keysymsPerKeycode: 1, keysyms: [0x61])
        var planner = KeyPlanner(map: full)
        #expect(throws: KeysError.self) { try planner.type("é") }
    }
}
