import DeckModel

/// Small named buttons and a layout builder shared by the model tests.
enum Fixture {
    static let files = DeckButton(name: "Files", icon: "folder", action: .open("~"))
    static let terminal = DeckButton(name: "Terminal", action: .run(command: "x-terminal-emulator"))
    static let build = DeckButton(name: "Build", action: .run(command: "make", cwd: "~/src", timeout: 600))
    static let next = DeckButton(name: "다음", action: .page(.next))

    /// A layout with the given buttons placed at (page, index); normalized.
    static func layout(_ placed: [(Int, Int, DeckButton)], slots: Int = 12) throws -> DeckLayout {
        let pageCount = (placed.map(\.0).max() ?? -1) + 1
        var pages = (0..<pageCount).map { _ in DeckPage.empty(slots: slots) }
        for (page, index, button) in placed { pages[page].buttons[index] = button }
        return try DeckLayout(slotsPerPage: slots, pages: pages)
    }
}
