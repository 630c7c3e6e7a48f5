import DeckCommandLine
import DeckModel
import DeckProtocol

/// The commands that look at or change the layout: show, set, clear, move, press.
extension Deckctl {
    typealias C = DeckctlCommands

    /// `show [PAGE] [--columns N]`: the layout from the welcome, drawn.
    @Sendable static func show(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let session = try run.connect()
        let welcome = session.welcome
        let page = run.parsed[C.showPage]
        if let page, !welcome.layout.pages.indices.contains(page) {
            throw .refused(code: .outOfRange, message: "there is no page \(page); the layout has \(pageRange(welcome.layout))",
                           problems: [])
        }
        if run.json {
            run.console.out(session.welcomeLine)
            return .ok
        }
        var picture = LayoutPicture(layout: welcome.layout, profile: welcome.profile, revision: welcome.revision,
                                    locked: welcome.locked, columns: run.parsed[C.columns])
        // What a device shows: a plugin's title in place of the button's name.
        picture.titles = try session.pluginTitles()
        for face in welcome.faces { picture.faces[DeckSlot(page: face.page, index: face.index)] = face }
        picture.colours = run.console.interactive
        run.say(picture.lines(page: page))
        return .ok
    }

    /// `set PAGE INDEX --name N … (one action)`.
    @Sendable static func set(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let button: DeckButton
        let page: Int, index: Int
        do throws(CommandLineError) {
            button = try SetCommand.button(from: run.parsed)
            page = try run.parsed.required(C.page)
            index = try run.parsed.required(C.index)
        } catch {
            throw .usage(error)
        }
        let reply = try run.connect().request(.setButton(page: page, index: index, button: button))
        run.say("set \(page)/\(index) to '\(Label.clean(button.name))'\(revision(of: reply))")
        return .ok
    }

    /// `clear PAGE INDEX`: like `move`, names the button the fresh layout
    /// shows there, so a device's change of that slot meanwhile is `stale`
    /// rather than cleared unseen.
    @Sendable static func clear(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let (page, index) = try slot(run, C.page, C.index)
        let session = try run.connect()
        let button = session.welcome.layout.button(page: page, index: index)
        let reply = try session.request(.clearButton(page: page, index: index, expecting: button))
        run.say(button.map { "cleared '\(Label.clean($0.name))' at \(page)/\(index)\(revision(of: reply))" }
            ?? "\(page)/\(index) is already empty; nothing changed")
        return .ok
    }

    /// `move PAGE INDEX TO_PAGE TO_INDEX`: sends the button that the fresh
    /// layout shows in the source slot, so the host's stale check compares
    /// with what this command saw.
    @Sendable static func move(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let (page, index) = try slot(run, C.page, C.index)
        let (toPage, toIndex) = try slot(run, C.toPage, C.toIndex)
        let session = try run.connect()
        let layout = session.welcome.layout
        guard layout.pages.indices.contains(page), index < layout.slotsPerPage else {
            throw .refused(code: .outOfRange, message: "there is no slot \(page)/\(index); the layout has \(pageRange(layout))",
                           problems: [])
        }
        guard let button = layout.button(page: page, index: index) else {
            throw .refused(code: .empty, message: "slot \(page)/\(index) is empty, so there is nothing to move (see 'deckctl show')",
                           problems: [])
        }
        let swapped = layout.button(page: toPage, index: toIndex)
        let reply = try session.request(.moveButton(fromPage: page, fromIndex: index, toPage: toPage, toIndex: toIndex,
                                                    button: button))
        let swap = swapped.map { ", swapping with '\(Label.clean($0.name))'" } ?? ""
        let same = page == toPage && index == toIndex
        run.say(same ? "'\(Label.clean(button.name))' is already in \(page)/\(index); nothing changed"
                     : "moved '\(Label.clean(button.name))' \(page)/\(index) -> \(toPage)/\(toIndex)\(swap)\(revision(of: reply))")
        return .ok
    }

    /// `press PAGE INDEX [--down | --up]`.
    @Sendable static func press(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let (page, index) = try slot(run, C.page, C.index)
        let phase: PressPhase = run.parsed[C.down] ? .down : run.parsed[C.up] ? .up : .tap
        let session = try run.connect()
        _ = try session.request(.press(page: page, index: index, button: nil, phase: phase))
        let name = session.welcome.layout.button(page: page, index: index).map { "'\(Label.clean($0.name))'" } ?? "the button"
        let edge = phase == .tap ? "" : " (\(phase.rawValue))"
        run.say("pressed \(name) at \(page)/\(index)\(edge); 'deckctl watch' shows how its action ends")
        return .ok
    }

    // MARK: Helpers

    /// Two typed arguments of the command, as a slot.
    static func slot(_ run: Invocation, _ page: Argument<Int>, _ index: Argument<Int>) throws(DeckctlError) -> (Int, Int) {
        do throws(CommandLineError) {
            return (try run.parsed.required(page), try run.parsed.required(index))
        } catch {
            throw .usage(error)
        }
    }

    /// `pages 0 to 2 of 12 slots (0 to 11)`.
    static func pageRange(_ layout: DeckLayout) -> String {
        "pages 0 to \(layout.pages.count - 1), with slots 0 to \(layout.slotsPerPage - 1)"
    }

    /// ` (revision 15)` from an `ok` that carries one.
    static func revision(of reply: HostLine) -> String {
        if case .ok(_, let revision?)? = reply.message { return " (revision \(revision))" }
        return ""
    }
}
