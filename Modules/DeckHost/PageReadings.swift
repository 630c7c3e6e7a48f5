import DeckModel

/// What the host reads from each page of the committed layout (its plugin
/// buttons, its `follow` commands), kept between revisions: a page whose
/// slots are the same storage as last time (``DeckPage/isSameStorage(as:)``)
/// is not read again, since an edit copies only the pages it writes to.
/// Reading every button of a layout at every commit was an eighth of deckd's
/// instructions per edit (docs/performance.md, issue 28).
struct PageReadings<Entry> {
    private var pages: [DeckPage] = []
    private var entries: [[Entry]] = []

    /// What ``update(_:read:)`` found: the entries of pages read again or
    /// gone as they were (`gone`), and as they are now (`read`).
    struct Update {
        var gone: [Entry] = []
        var read: [Entry] = []
        /// Whether a page was read again or went away (its entries may be none).
        fileprivate(set) var pagesChanged = false
    }

    /// Reads the pages of `layout` that changed with `read(page, number)`.
    mutating func update(_ layout: DeckLayout, read: (DeckPage, Int) -> [Entry]) -> Update {
        var update = Update()
        for (number, page) in layout.pages.enumerated() {
            if number < pages.count, pages[number].isSameStorage(as: page) { continue }
            update.pagesChanged = true
            let now = read(page, number)
            update.read += now
            if number < pages.count {
                update.gone += entries[number]
                pages[number] = page
                entries[number] = now
            } else {
                pages.append(page)
                entries.append(now)
            }
        }
        if pages.count > layout.pages.count {
            update.pagesChanged = true
            for old in entries[layout.pages.count...] { update.gone += old }
            pages.removeLast(pages.count - layout.pages.count)
            entries.removeLast(entries.count - layout.pages.count)
        }
        return update
    }

    /// Every entry, in page order.
    var all: [Entry] { entries.flatMap { $0 } }

    /// What `pick` makes of each entry it keeps, in page order; the entries
    /// it passes over are not copied (as ``all`` copies every one).
    func picking<Picked>(_ pick: (Entry) -> Picked?) -> [Picked] {
        var picked: [Picked] = []
        for page in entries.indices {
            for index in entries[page].indices {
                if let kept = pick(entries[page][index]) { picked.append(kept) }
            }
        }
        return picked
    }
}
