import DeckModel
import DeckPluginKit
import DeckPlugins
@testable import DeckProfiles
import DeckTestSupport
import Testing
@testable import DeckHost

/// Which plugins hear of their buttons after a commit (PLUGINS.md §4): read
/// page by page from what changed, it must tell exactly what a whole
/// layout's scan would, edit after edit.
@Suite("InstalledPlugins: the plugins told of their buttons")
struct InstalledPluginsTests {
    static let ids = ["counter", "keys", "obs"]

    /// `button` with its plugin id (if any) drawn from three.
    static func spread(_ button: DeckButton, using rng: inout SeededGenerator) -> DeckButton {
        guard case let .plugin(_, command, settings) = button.action else { return button }
        var button = button
        button.action = .plugin(id: ids.randomElement(using: &rng)!, command: command, settings: settings)
        return button
    }

    @Test(arguments: 0..<8)
    func randomEditsTellWhatAWholeScanWould(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 0x9106)
        var layout = RandomLayouts.layout(maxPages: 5, using: &rng)
        var plugins = InstalledPlugins()
        plugins.start(PluginCatalog(), folders: [], profiles: ProfileCatalog(folder: "/layouts", files: []))
        var told: [String: [PluginButton]] = [:]
        for step in 0..<400 {
            let page = Int.random(in: 0..<layout.pages.count, using: &rng)
            let index = Int.random(in: 0..<layout.slotsPerPage, using: &rng)
            switch Int.random(in: 0..<8, using: &rng) {
            case 0..<4:
                try? layout.set(page: page, index: index, button: Self.spread(RandomLayouts.button(tag: step, using: &rng), using: &rng))
            case 4:
                try? layout.clear(page: page, index: index, expecting: layout.button(page: page, index: index))
            case 5:
                // A reload: every page stored anew.
                layout = try DeckLayout(slotsPerPage: layout.slotsPerPage,
                                        pages: layout.pages.map { DeckPage(title: $0.title, buttons: Array($0.buttons)) })
            default:
                if let source = layout.placedButtons.randomElement(using: &rng) {
                    try? layout.move(fromPage: source.page, fromIndex: source.index,
                                     toPage: Int.random(in: 0..<layout.pages.count, using: &rng), toIndex: index, expecting: source.button)
                }
            }
            let now = layout.pluginButtons
            let expected = Set(now.keys).union(told.keys).sorted().filter { (now[$0] ?? []) != (told[$0] ?? []) }
                .map { ($0, now[$0] ?? []) }
            told = now
            let heard = plugins.follow(layout)
            #expect(heard.map(\.plugin) == expected.map(\.0))
            #expect(heard.map(\.buttons) == expected.map(\.1))
            #expect(plugins.told == now)
        }
    }

    @Test func nothingIsToldBeforeThePluginsStart() throws {
        var rng = SeededGenerator(seed: 5)
        var plugins = InstalledPlugins()
        let layout = RandomLayouts.layout(maxPages: 3, using: &rng)
        #expect(plugins.follow(layout).isEmpty)
        plugins.start(PluginCatalog(), folders: [], profiles: ProfileCatalog(folder: "/layouts", files: []))
        #expect(plugins.follow(layout).map(\.plugin) == layout.pluginButtons.keys.sorted())
        #expect(plugins.follow(layout).isEmpty)
    }
}

/// PageReadings: what is read page by page is what a whole scan reads, and
/// only changed pages are read again.
@Suite("PageReadings: a layout read page by page")
struct PageReadingsTests {
    static func follower(_ tag: Int) -> DeckButton {
        DeckButton(name: "F\(tag)", action: .run(command: "true", cwd: tag % 2 == 0 ? "~" : nil, follow: "watch \(tag)"))
    }

    @Test(arguments: 0..<6)
    func followsReadPageByPageAreTheWholeScans(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 0xF011)
        var layout = RandomLayouts.layout(maxPages: 4, using: &rng)
        var readings = PageReadings<FollowSpec>()
        var reads = 0
        _ = readings.update(layout) { page, number in reads += 1; return FollowSpec.all(on: page, number: number) }
        #expect(reads == layout.pages.count)
        for step in 0..<300 {
            let page = Int.random(in: 0..<layout.pages.count, using: &rng)
            let index = Int.random(in: 0..<layout.slotsPerPage, using: &rng)
            let before = layout
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: try? layout.set(page: page, index: index, button: Self.follower(step))
            case 1: try? layout.set(page: page, index: index, button: RandomLayouts.button(tag: step, using: &rng))
            case 2: try? layout.clear(page: page, index: index, expecting: layout.button(page: page, index: index))
            default:
                if let source = layout.placedButtons.randomElement(using: &rng) {
                    try? layout.move(fromPage: source.page, fromIndex: source.index, toPage: page, toIndex: index,
                                     expecting: source.button)
                }
            }
            reads = 0
            let update = readings.update(layout) { page, number in reads += 1; return FollowSpec.all(on: page, number: number) }
            #expect(readings.all == FollowSpec.all(in: layout))
            // Pages an edit did not write to are not read again.
            let changed = zip(layout.pages, before.pages).filter { !$0.isSameStorage(as: $1) }.count
                + max(0, layout.pages.count - before.pages.count)
            #expect(reads == changed)
            #expect(!update.pagesChanged == (layout == before && layout.pages.count == before.pages.count && changed == 0))
        }
    }
}
