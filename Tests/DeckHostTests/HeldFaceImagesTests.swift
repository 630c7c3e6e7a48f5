import DeckModel
@testable import DeckHost
import Testing

/// Which images a TCP device holds, so each goes inline once (docs/faces.md §4).
@Suite struct HeldFaceImagesTests {
    let a = DeckSlot(page: 0, index: 0)
    let b = DeckSlot(page: 0, index: 1)

    @Test func anImageCarriesItsBytesOnceWhileAFaceShowsIt() {
        var held = HeldFaceImages()
        // Each step: what goes to the device, and whether it carries the bytes.
        let steps: [(String?, DeckSlot, Bool, String)] = [
            ("x", a, true, "new to the device"),
            ("x", a, false, "a state or title change of the same button"),
            ("x", b, false, "another button showing it"),
            (nil, a, false, "a's image goes; b still shows it"),
            (nil, b, false, "no face shows it: the device may drop it"),
            ("x", a, true, "so its bytes go again"),
        ]
        for (hash, slot, carries, why) in steps {
            let carried = held.send(hash, at: slot)
            #expect(carried == carries, "\(why)")
        }
    }

    @Test func aListReplacesWhatTheDeviceShows() {
        var held = HeldFaceImages()
        let welcome = held.sendList([(a, "x"), (b, "y")])
        #expect(welcome == ["x", "y"], "a welcome carries every image")
        let afterEdit = held.sendList([(a, "x"), (b, "y")])
        #expect(afterEdit.isEmpty, "a layout after an edit carries none")
        let moved = held.sendList([(b, "x")])
        #expect(moved.isEmpty && !held.holds("y"), "x moved with its button; y went")
        let back = held.send("y", at: a)
        #expect(back)
        let none = held.sendList([])
        #expect(none.isEmpty && !held.holds("x") && !held.holds("y"))
    }
}
