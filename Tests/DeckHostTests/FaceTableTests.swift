import DeckModel
import DeckProtocol
import DeckWeb
@testable import DeckHost
import Testing

/// The face table driven directly (docs/faces.md §2–§4): no process, no
/// socket, no sleep; frames end when the test says so.
@Suite struct FaceTableTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
    static let mic = DeckButton(name: "Mic", action: .plugin(id: "sound", command: "mute", settings: ["target": .string("input")]),
                                states: [ButtonState(id: "live"), ButtonState(id: "muted", name: "Mic off")])
    static let files = DeckButton(name: "Files", action: .open("~"))

    static func layout(_ buttons: [DeckButton?]) -> DeckLayout {
        var page = DeckPage.empty(slots: 4)
        for (index, button) in buttons.enumerated() { page.buttons[index] = button }
        return try! DeckLayout(slotsPerPage: 4, pages: [page])
    }

    static let slot0 = DeckSlot(page: 0, index: 0)
    static let slot1 = DeckSlot(page: 0, index: 1)

    func table() -> FaceTable { FaceTable(layout: Self.layout([Self.mic, Self.files])) }

    @Test func aChangeIsSentAtTheEndOfItsTurnAndStartsAFrame() {
        var faces = table()
        #expect(faces.handle(.change(Self.slot0, [.state("muted")], from: .plugin("sound"))) == [.scheduleFrame(.turnEnd)])
        #expect(faces.current == [ButtonFace(page: 0, index: 0, state: "muted")])
        #expect(faces.handle(.frameTick) == [.sendFace(ButtonFace(page: 0, index: 0, state: "muted")), .scheduleFrame(.frame)])
        #expect(faces.handle(.frameTick) == [], "nothing changed within the frame")
    }

    /// A plugin's `setState` then `setTitle`, read in one wake-up, were two
    /// faces: the new state under the old title for a frame (an audit saw it
    /// about every other time).
    @Test func whatOneTurnBringsGoesOutAsOneFace() {
        var faces = table()
        #expect(faces.handle(.change(Self.slot0, [.state("muted")], from: .plugin("sound"))) == [.scheduleFrame(.turnEnd)])
        #expect(faces.handle(.change(Self.slot0, [.title("Mic: off")], from: .plugin("sound"))) == [])
        #expect(faces.handle(.change(Self.slot1, [.flash(.ok)], from: .plugin("sound"))) == [])
        #expect(faces.handle(.frameTick) == [
            .sendFace(ButtonFace(page: 0, index: 0, title: "Mic: off", state: "muted")),
            .sendTitle(Self.slot0, "Mic: off"),
            .sendFace(ButtonFace(page: 0, index: 1, flash: .ok)),
            .scheduleFrame(.frame),
        ])
    }

    @Test func aFloodEndsOnTheNewestStateOncePerFrame() {
        var faces = table()
        _ = faces.handleTurn(.change(Self.slot0, [.state("muted")], from: .plugin("sound")))
        for index in 0..<1000 {
            #expect(faces.handleTurn(.change(Self.slot0, [.state(index % 2 == 0 ? "live" : "muted")], from: .plugin("sound"))) == [])
        }
        _ = faces.handleTurn(.change(Self.slot0, [.state(nil)], from: .plugin("sound")))
        _ = faces.handleTurn(.change(Self.slot0, [.state("muted")], from: .plugin("sound")))
        #expect(faces.handle(.frameTick) == [.sendFace(ButtonFace(page: 0, index: 0, state: "muted")), .scheduleFrame(.frame)])
        #expect(faces.handle(.frameTick) == [])
    }

    @Test func stateZeroAndUnknownStates() {
        var faces = table()
        _ = faces.handleTurn(.change(Self.slot0, [.state("muted")], from: .plugin("sound")))
        _ = faces.handle(.frameTick)
        #expect(faces.handleTurn(.change(Self.slot0, [.state("live")], from: .plugin("sound")))
            == [.sendFace(ButtonFace(page: 0, index: 0)), .scheduleFrame(.frame)], "the first state's id is state 0")
        _ = faces.handle(.frameTick)
        #expect(faces.handleTurn(.change(Self.slot0, [.title("x"), .state("shouting")], from: .plugin("sound")))
            == [.refuse(.notFound, "button 'Mic' at 0/0 has no state 'shouting' (its states are live, muted); its face is unchanged")])
        #expect(faces.face(Self.slot0) == FaceTable.Face(), "nothing of a refused change is kept")
        #expect(faces.handleTurn(.change(Self.slot1, [.state("on")], from: .control("deckctl")))
            == [.refuse(.notFound, "button 'Files' at 0/1 has no state 'on' (it declares no states); its face is unchanged")])
        #expect(faces.handleTurn(.change(DeckSlot(page: 0, index: 2), [.state("on")], from: .control("deckctl")))
            == [.refuse(.empty, "slot 0/2 is empty; a face needs a button")])
        #expect(faces.handleTurn(.change(DeckSlot(page: 3, index: 0), [.title("t")], from: .control("deckctl")))
            == [.refuse(.outOfRange, "page 3 does not exist (the layout has pages 0 to 1)")])
    }

    @Test func aControlClientsClearIsCheckedWhereAPluginsIsNot() {
        var faces = table()
        #expect(faces.handleTurn(.change(DeckSlot(page: 0, index: 2), [.clear], from: .control("deckctl")))
            == [.refuse(.empty, "slot 0/2 is empty; a face needs a button")])
        #expect(faces.handleTurn(.change(DeckSlot(page: 3, index: 0), [.clear], from: .control("deckctl")))
            == [.refuse(.outOfRange, "page 3 does not exist (the layout has pages 0 to 1)")])
        #expect(faces.handleTurn(.change(DeckSlot(page: 0, index: 1), [.clear], from: .control("deckctl"))) == [],
                "a button with no face: nothing to clear, and no refusal")
        #expect(faces.handleTurn(.change(DeckSlot(page: 0, index: 2), [.title(nil)], from: .plugin("sound"))) == [],
                "a plugin taking its title from a slot the layout emptied is no mistake")
    }

    @Test func imagesAreSniffedStoredSharedAndForgotten() throws {
        var faces = table()
        let image = try FaceImage(bytes: Self.png)
        let reference = FaceImageReference(hash: image.hash, type: "image/png", url: "/faces/\(image.hash).png")
        #expect(faces.handleTurn(.change(Self.slot0, [.image(Self.png)], from: .plugin("sound")))
            == [.storeImage(image), .sendFace(ButtonFace(page: 0, index: 0, image: reference)), .scheduleFrame(.frame)])
        #expect(faces.handleTurn(.change(Self.slot1, [.image(Self.png)], from: .control("k"))) == [], "stored once; sent at the frame")
        #expect(faces.handleTurn(.change(Self.slot0, [.image(nil)], from: .plugin("sound"))) == [], "still used by 0/1")
        #expect(faces.handleTurn(.change(Self.slot1, [.clear], from: .control("k"))) == [.forgetImage(hash: image.hash)])
        #expect(faces.imageHashes.isEmpty)
        #expect(faces.handleTurn(.change(Self.slot0, [.image(Array("GIF89a".utf8))], from: .plugin("sound")))
            == [.refuse(.invalid, "the image is not PNG, JPEG or SVG (its first bytes are none of theirs) for button 'Mic' at 0/0; its face is unchanged")])
        let huge = Self.png + [UInt8](repeating: 0, count: FaceImage.maximumBytes)
        #expect(faces.handleTurn(.change(Self.slot0, [.image(huge)], from: .plugin("sound")))
            == [.refuse(.invalid, "the image is \(huge.count) bytes, more than 262144 for button 'Mic' at 0/0; its face is unchanged")])
    }

    /// Every `welcome` carries the images shown, inline for TCP devices: with
    /// forty of 256 KiB a device was closed before it could read its
    /// `welcome`. A new image past the bound is refused; one that replaces
    /// a button's only use of its image frees that image's bytes.
    @Test func theImagesShownAtOnceAreBounded() throws {
        var page = DeckPage.empty(slots: 16)
        for index in 0..<16 { page.buttons[index] = DeckButton(name: "B\(index)", action: .open("~")) }
        var faces = FaceTable(layout: try DeckLayout(slotsPerPage: 16, pages: [page]))
        func image(_ n: Int) -> [UInt8] { Self.png + [UInt8(n)] + [UInt8](repeating: 0, count: 250_000 - Self.png.count - 1) }
        func slot(_ index: Int) -> DeckSlot { DeckSlot(page: 0, index: index) }
        func refused(_ actions: [FaceAction]) -> Bool { actions.contains { if case .refuse = $0 { true } else { false } } }
        for index in 0..<12 {
            let actions = faces.handleTurn(.change(slot(index), [.image(image(index))], from: .plugin("art")))
            #expect(!refused(actions))
        }
        #expect(faces.shownImageBytes == 3_000_000)
        let past = faces.handleTurn(.change(slot(12), [.image(image(12))], from: .plugin("art")))
        #expect(past == [.refuse(.invalid, "the buttons' images would take 3250000 bytes, more than the 3145728 all faces may show at once, so the image for button 'B12' at 0/12 is refused; its face is unchanged")])
        #expect(faces.face(slot(12)) == FaceTable.Face())
        let shownAlready = faces.handleTurn(.change(slot(12), [.image(image(0))], from: .plugin("art")))
        #expect(!refused(shownAlready), "an image already shown costs nothing more")
        let replacing = faces.handleTurn(.change(slot(1), [.image(image(13))], from: .plugin("art")))
        #expect(!refused(replacing), "a new album cover replaces the button's old one")
        #expect(faces.shownImageBytes == 3_000_000)
        _ = faces.handleTurn(.change(slot(2), [.image(nil)], from: .plugin("art")))
        #expect(faces.shownImageBytes == 2_750_000, "an image no face shows is not counted")
        _ = faces.handle(.layoutChanged(try DeckLayout(slotsPerPage: 16, pages: [DeckPage.empty(slots: 16)])))
        #expect(faces.shownImageBytes == 0, "nor one whose button went")
    }

    /// An image another button shows already is held by every device: it
    /// takes nothing of the budget.
    @Test func anImageAnotherButtonShowsTakesNoCredit() throws {
        var faces = table()
        let big = Self.png + [UInt8](repeating: 7, count: 200_000)
        _ = faces.handleTurn(.change(Self.slot0, [.image(big)], from: .plugin("sound")))
        let credit = faces.imageCredit
        _ = faces.handleTurn(.change(Self.slot1, [.image(big)], from: .control("k")))
        let sent = faces.handle(.frameTick)
        #expect(sent.contains { if case .sendFace(let face) = $0 { face.index == 1 && face.image != nil } else { false } })
        #expect(faces.imageCredit == min(FaceTable.ImageBudget.burst, credit + FaceTable.ImageBudget.perFrame))
    }

    /// A plugin sending new 200 KB images for two buttons every frame: the
    /// new images sent stay within the budget (~1 MiB a second after a
    /// burst of two), the newest of each button arrives once the flood
    /// stops, and then the frames stop.
    @Test func newImagesStayWithinTheBudgetAndTheNewestArrives() throws {
        var faces = table()
        func image(_ n: Int) -> [UInt8] { Self.png + [UInt8(n % 251)] + [UInt8](repeating: 0, count: 200_000) }
        var sent = 0, frames = 0
        var last: [DeckSlot: String] = [:]
        func count(_ actions: [FaceAction]) {
            for case .sendFace(let face) in actions {
                let slot = DeckSlot(page: face.page, index: face.index)
                // A device holds the images of the faces it shows; only others carry bytes.
                if let hash = face.image?.hash, !last.values.contains(hash) { sent += image(0).count }
                last[slot] = face.image?.hash
            }
        }
        for n in 0..<125 {  // two seconds of frames
            count(faces.handleTurn(.change(Self.slot0, [.image(image(n))], from: .plugin("sound"))))
            count(faces.handleTurn(.change(Self.slot1, [.image(image(n + 100))], from: .control("k"))))
            count(faces.handle(.frameTick))
            frames += 1
        }
        #expect(sent <= FaceTable.ImageBudget.burst + frames * FaceTable.ImageBudget.perFrame)
        #expect(sent >= frames * FaceTable.ImageBudget.perFrame / 2, "the images are not starved")
        var quiet = 0
        while quiet < 200 {
            let actions = faces.handle(.frameTick)
            count(actions)
            if actions.isEmpty { break }  // no frame asked for: they stopped
            quiet += 1
        }
        #expect(quiet < 200, "the frames stop once the credit is whole")
        #expect(faces.pending.isEmpty)
        #expect(faces.imageCredit == FaceTable.ImageBudget.burst)
        #expect(last[Self.slot0] == (try FaceImage(bytes: image(124))).hash)
        #expect(last[Self.slot1] == (try FaceImage(bytes: image(224))).hash)
    }

    /// A button whose new image waits does not hold back another's title.
    @Test func aWaitingImageHoldsBackOnlyItsOwnButton() throws {
        var faces = table()
        let big = Self.png + [UInt8](repeating: 7, count: 250_000)
        _ = faces.handleTurn(.change(Self.slot0, [.image(big)], from: .plugin("sound")))
        _ = faces.handleTurn(.change(Self.slot1, [.image(big + [1])], from: .control("k")))
        _ = faces.handle(.frameTick)
        // The credit is spent: a third new image waits, a title goes at the next frame.
        _ = faces.handleTurn(.change(Self.slot0, [.image(big + [2])], from: .plugin("sound")))
        _ = faces.handleTurn(.change(Self.slot1, [.title("Now")], from: .control("k")))
        let next = faces.handle(.frameTick)
        #expect(next.contains(.sendFace(ButtonFace(page: 0, index: 1, title: "Now",
                                                   image: FaceTable.reference(try FaceImage(bytes: big + [1]))))))
        #expect(!next.contains { if case .sendFace(let face) = $0 { face.index == 0 } else { false } })
        #expect(faces.pending.keys.contains(Self.slot0))
    }

    @Test func flashesGoOnceAndAreNeverListed() {
        var faces = table()
        #expect(faces.handleTurn(.change(Self.slot1, [.flash(.alert)], from: .plugin("x")))
            == [.sendFace(ButtonFace(page: 0, index: 1, flash: .alert)), .scheduleFrame(.frame)])
        #expect(faces.current.isEmpty)
        _ = faces.handleTurn(.change(Self.slot1, [.flash(.ok)], from: .plugin("x")))
        _ = faces.handleTurn(.change(Self.slot1, [.title("t")], from: .plugin("x")))
        #expect(faces.handle(.frameTick) == [.sendFace(ButtonFace(page: 0, index: 1, title: "t", flash: .ok)),
                                             .sendTitle(Self.slot1, "t"), .scheduleFrame(.frame)])
    }

    @Test func titlesReachLevel7OnlyWhenTheyChange() {
        var faces = table()
        #expect(faces.handleTurn(.change(Self.slot0, [.title("Hi")], from: .plugin("")))
            == [.sendFace(ButtonFace(page: 0, index: 0, title: "Hi")), .sendTitle(Self.slot0, "Hi"), .scheduleFrame(.frame)])
        _ = faces.handle(.frameTick)
        #expect(faces.handleTurn(.change(Self.slot0, [.state("muted")], from: .plugin("sound")))
            == [.sendFace(ButtonFace(page: 0, index: 0, title: "Hi", state: "muted")), .scheduleFrame(.frame)])
    }

    @Test func layoutChangesKeepMoveOrResetFaces() throws {
        var faces = table()
        _ = faces.handleTurn(.change(Self.slot0, [.state("muted"), .image(Self.png)], from: .plugin("sound")))
        _ = faces.handleTurn(.change(Self.slot1, [.title("Docs")], from: .control("k")))
        _ = faces.handle(.frameTick)
        // A reload with the same buttons keeps everything.
        #expect(faces.handle(.layoutChanged(Self.layout([Self.mic, Self.files]))) == [])
        #expect(faces.current.count == 2)
        // A move (swap) carries each face with its button.
        #expect(faces.handle(.layoutChanged(Self.layout([Self.files, Self.mic]))) == [
            .sendTitle(Self.slot0, "Docs"), .sendTitle(Self.slot1, nil)])
        #expect(faces.current.map { DeckSlot(page: $0.page, index: $0.index) } == [Self.slot0, Self.slot1])
        #expect(faces.face(Self.slot1).state == "muted" && faces.face(Self.slot0).title == "Docs")
        // Restyled, with the state gone: the face stays, the state goes.
        var restyled = Self.mic
        restyled.style = ButtonStyle(background: DeckColor("red"))
        restyled.states = [ButtonState(id: "live")]
        _ = faces.handle(.layoutChanged(Self.layout([Self.files, restyled])))
        #expect(faces.face(Self.slot1).state == nil && faces.face(Self.slot1).image != nil)
        // Another button in the slot: back to default, the image forgotten.
        let hash = try FaceImage(bytes: Self.png).hash
        #expect(faces.handle(.layoutChanged(Self.layout([Self.files, DeckButton(name: "Other", action: .open("x"))])))
            == [.forgetImage(hash: hash)])
        #expect(faces.current == [ButtonFace(page: 0, index: 0, title: "Docs")])
    }

    @Test func clearingWhatIsAlreadyDefaultIsNothing() {
        var faces = table()
        #expect(faces.handleTurn(.change(DeckSlot(page: 0, index: 3), [.title(nil)], from: .plugin(""))) == [],
                "a title the manager clears after the slot was emptied: no refusal, no message")
        #expect(faces.handleTurn(.change(Self.slot1, [.clear], from: .control("k"))) == [])
    }

    @Test func aPluginThatEndsTakesItsStatesAndImages() {
        var faces = table()
        _ = faces.handleTurn(.change(Self.slot0, [.state("muted"), .title("t")], from: .plugin("sound")))
        _ = faces.handle(.frameTick)
        #expect(faces.handleTurn(.pluginEnded("other")) == [])
        #expect(faces.handleTurn(.pluginEnded("sound")) == [.sendFace(ButtonFace(page: 0, index: 0, title: "t")), .scheduleFrame(.frame)])
    }
}

extension FaceTable {
    /// `input`, then the end of its turn when it asked for one: what goes out
    /// in the turn the input came in.
    mutating func handleTurn(_ input: FaceInput) -> [FaceAction] {
        let actions = handle(input)
        guard actions.last == .scheduleFrame(.turnEnd) else { return actions }
        return actions.dropLast() + handle(.frameTick)
    }
}
