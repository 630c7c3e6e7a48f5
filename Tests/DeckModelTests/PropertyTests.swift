import DeckModel
import DeckTestSupport
import Testing

@Suite("random edit sequences")
struct PropertyTests {
    /// Thousands of random sets, clears and moves, each checked against a
    /// plain count of what should be there: nothing lost, nothing doubled,
    /// always in normal form, and a refused edit changes nothing.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func editsNeverLoseOrDuplicate(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var layout = DeckLayout.empty(slotsPerPage: [12, 6, 1].randomElement(using: &rng)!)
        var expected: [String: Int] = [:]  // name -> how many times it should appear
        var nextTag = 0

        for _ in 0..<3_000 {
            let before = layout
            let page = Int.random(in: -1...(layout.pages.count), using: &rng)
            let index = Int.random(in: -1...layout.slotsPerPage, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<3:
                nextTag += 1
                let button = RandomLayouts.button(tag: nextTag, using: &rng)
                let replaced = layout.button(page: page, index: index)
                do {
                    try layout.set(page: page, index: index, button: button)
                    expected[button.name, default: 0] += 1
                    if let replaced { expected[replaced.name, default: 0] -= 1 }
                } catch {
                    #expect(layout == before)
                }
            case 3:
                let removed = layout.button(page: page, index: index)
                let guardWith: DeckButton? = Bool.random(using: &rng) ? removed : layout.placedButtons.randomElement(using: &rng)?.button
                do {
                    try layout.clear(page: page, index: index, expecting: guardWith)
                    if let removed { expected[removed.name, default: 0] -= 1 }
                } catch {
                    #expect(layout == before)
                }
            default:
                let source = layout.placedButtons.randomElement(using: &rng)
                let fromPage = source?.page ?? page
                let fromIndex = source?.index ?? index
                // Sometimes the device's idea of the button is out of date.
                let picked = Int.random(in: 0..<8, using: &rng) == 0
                    ? layout.placedButtons.randomElement(using: &rng)?.button ?? Fixture.files
                    : source?.button ?? Fixture.files
                let toPage = Int.random(in: -1...layout.pages.count, using: &rng)
                let toIndex = Int.random(in: -1...layout.slotsPerPage, using: &rng)
                do {
                    try layout.move(fromPage: fromPage, fromIndex: fromIndex, toPage: toPage, toIndex: toIndex, expecting: picked)
                    #expect(layout.button(page: toPage, index: toIndex) == picked)
                } catch {
                    #expect(layout == before)
                }
            }
            #expect(layout.isNormal)
            let counts = Dictionary(layout.placedButtons.map { ($0.button.name, 1) }, uniquingKeysWith: +)
            #expect(counts == expected.filter { $0.value != 0 })
            if counts != expected.filter({ $0.value != 0 }) { return }
        }
    }
}
