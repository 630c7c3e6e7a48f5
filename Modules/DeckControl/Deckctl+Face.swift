import DeckCommandLine
import DeckModel
import DeckProtocol

extension DeckctlCommands {
    static let faceState = Option<String>("state", value: "ID", help: "show the button's state with this id (see its states: in the profile)")
    static let faceTitle = Option<String>("title", value: "TEXT", help: "show TEXT in place of the button's name")
    static let faceClear = Flag("clear", help: "back to the button as the layout has it: no title, state 0, no image")
    static let face = CommandSpec(
        "face", summary: "sets what a button shows now: a state, a title, or back to default",
        discussion: "Sets the live face of the button in PAGE/INDEX on every device (docs/faces.md): one of its "
            + "declared states, a title in place of its name, or back to the default. A face is not layout: it "
            + "is not saved, not exported and does not change the revision. Scripts use it for command-driven "
            + "state, such as a cron job's last result.",
        arguments: [page, index], options: [faceState, faceTitle, faceClear],
        groups: [OptionGroup(["state", "title", "clear"], required: true, meaning: "what the button shows")],
        examples: [Example("deckctl face 0 3 --state failed", "show the 'failed' state of slot 3 of page 0"),
                   Example("deckctl face 0 3 --title 'Backup: 02:10'", "a title in place of the button's name"),
                   Example("deckctl face 0 3 --clear", "back to the button as the profile has it")])
}

extension Deckctl {
    /// `face PAGE INDEX --state ID | --title TEXT | --clear` (docs/faces.md §5).
    @Sendable static func face(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        let (page, index) = try slot(run, C.page, C.index)
        let state = run.parsed[C.faceState], title = run.parsed[C.faceTitle], clear = run.parsed[C.faceClear]
        let session = try run.connect()
        guard session.welcome.protocolLevel >= 8 else {
            throw .refused(code: .unsupported, message: "this host speaks protocol level \(session.welcome.protocolLevel); "
                           + "faces need level 8 (update deckd)", problems: [])
        }
        _ = try session.request(.setFace(page: page, index: index, state: state, title: title, clear: clear))
        let name = session.welcome.layout.button(page: page, index: index).map { "'\(Label.clean($0.name))'" } ?? "the button"
        let what = clear ? "shows its default face again" : state.map { "shows state \(Label.clean($0))" }
            ?? "shows '\(Label.clean(title ?? ""))'"
        run.say("\(name) at \(page)/\(index) \(what)")
        return .ok
    }
}
