@testable import DeckModel
import Testing

/// The shortcuts the layout's JSON and the fold take before comparing
/// buttons: the bits of a slot, then its value.
@Suite("Slots compared bit for bit, then by value")
struct SlotIdentityTests {
    @Test func aCopiedSlotIsIdenticalAndAnEqualButSeparatelyBuiltOneIsOnlyEqual() {
        let page: [DeckButton?] = [Fixture.terminal, nil]
        var copy = page
        copy[1] = DeckButton(name: "Other", action: .run(command: "true"))
        #expect(DeckPage.identical(page, copy, at: 0), "slot 0 was copied with the array")
        // The same value built again: its command, too long for a small
        // string, is stored apart, so the bits differ and the values are compared.
        let rebuilt: [DeckButton?] = [DeckButton(name: "Terminal", action: .run(command: ["x-terminal", "emulator"].joined(separator: "-"))), nil]
        #expect(!DeckPage.identical(page, rebuilt, at: 0))
        #expect(DeckPage.holdEqual(page, rebuilt, at: 0))
        #expect(!DeckPage.holdEqual(page, copy, at: 1))
        #expect(!DeckPage.identical(page, copy, at: 1))
    }

    @Test func emptySlotsAndSlotsPastTheEndAreEqualAndNothingElseIs() {
        let one: [DeckButton?] = [nil, Fixture.terminal]
        let other: [DeckButton?] = [nil]
        #expect(DeckPage.holdEqual(one, other, at: 0))
        #expect(!DeckPage.holdEqual(one, other, at: 1), "a button against a slot past the end")
        #expect(!DeckPage.holdEqual(other, one, at: 1))
        #expect(DeckPage.holdEqual(other, other, at: 5), "past both ends: both empty")
        #expect(!DeckPage.identical(other, other, at: 5), "no bits to compare past the end")
    }
}
