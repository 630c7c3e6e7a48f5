import DeckModel

/// Reads a parsed profile document into a layout, collecting every problem
/// instead of stopping at the first, so a person fixes a file in one pass.
struct ProfileReader {
    typealias Pair = (key: YAMLNode, value: YAMLNode)

    let document: YAMLDocument
    private(set) var problems: [FileProblem] = []
    /// Slots on a page, once `slotsPerPage` has been read.
    private(set) var slotsPerPage = DeckConstants.defaultSlotsPerPage
    /// False when `slotsPerPage` was invalid: slot numbers are then not range-checked,
    /// which would only repeat that one mistake on every page.
    private var checkSlotRange = true
    /// For each slot of the page being read, the line of the key that filled it (0: none yet).
    private var slotLines: [Int] = []
    /// Where `name:` gives the profile's name, for problems about the name itself.
    private(set) var nameMark: YAMLMark?
    /// Where each plugin button's settings are written, for the check
    /// against its plugin's declarations (``SettingsSite``).
    var settingsSites: [SettingsSite] = []
    /// The top-level entries of the settings mapping read last (for its site).
    var settingsEntries: [SettingsSite.Entry] = []

    init(document: YAMLDocument) {
        self.document = document
        problems = document.problems
    }

    /// Adds a problem at `node`, unless `node` stands in for an alias that
    /// could not be resolved: that alias is already the problem there.
    mutating func report(_ message: String, at node: YAMLNode) {
        if document.isPlaceholder(node) { return }
        problems.append(document.problem(message, at: node))
    }

    /// The profile in the document, or nil when there is any problem (then
    /// ``problems`` holds all of them, sorted by position, without repeats).
    mutating func read(defaultName: String) -> DeckProfile? {
        let profile = readProfile(defaultName: defaultName)
        problems = FileProblem.listed(Array(Set(problems)).sorted())
        return problems.isEmpty ? profile : nil
    }

    private enum TopKey: String, ProfileKeys {
        case name, slotsPerPage, pages
        static let table = KeyTable<Self>()
    }

    private mutating func readProfile(defaultName: String) -> DeckProfile? {
        let empty = "the file is empty; a profile needs at least a pages: list"
        guard let root = document.root else {
            if problems.isEmpty, let problem = document.emptyDocumentProblem(empty) { problems.append(problem) }
            return nil
        }
        guard root.kind == .mapping else {
            if document.isNull(root) {
                if let problem = document.emptyDocumentProblem(empty) { problems.append(problem) }
            } else {
                report("a profile must be a mapping with name, slotsPerPage and pages, not \(root.kindDescription)", at: root)
            }
            return nil
        }
        var name: Pair?, slots: Pair?, pages: Pair?
        let typos = fields(of: root, in: "profile", as: TopKey.self,
                           expected: "name, slotsPerPage, pages, or a key starting with x-",
                           skip: { $0.hasPrefix("x-") }) { key, pair in
            switch key {
            case .name: name = pair
            case .slotsPerPage: slots = pair
            case .pages: pages = pair
            }
        }
        // `slotsPerPage: ~` is the default, as a null `icon`, `title` or `timeout` is theirs.
        if let slots, !document.isNull(slots.value) { readSlotsPerPage(slots.value) }
        let profileName = readProfileName(name) ?? defaultName
        guard let pages else {
            if !typos.contains(.pages) { report("a profile needs pages: (a list of pages)", at: root) }
            return nil
        }
        let pageList = readPages(pages)
        guard let pageList, problems.isEmpty else { return nil }
        do {
            let layout = try DeckLayout(slotsPerPage: slotsPerPage, pages: pageList)
            return DeckProfile(name: profileName, layout: layout)
        } catch {
            report(error.description, at: pages.value)
            return nil
        }
    }

    private mutating func readSlotsPerPage(_ node: YAMLNode) {
        let limit = DeckConstants.maximumSlotsPerPage
        if let count = wholeNumber(node), (1...limit).contains(count) {
            slotsPerPage = count
            return
        }
        if let problem = leadingZero(node, "slotsPerPage", within: 1...limit) {
            report(problem, at: node)
        } else {
            let shown = node.kind == .scalar ? "'\(document.text(node))'" : node.kindDescription
            report("slotsPerPage must be a whole number from 1 to \(limit), not \(shown)", at: node)
        }
        slotsPerPage = limit
        checkSlotRange = false
    }

    private mutating func readProfileName(_ pair: Pair?) -> String? {
        guard case .value(let name, let node) = text(pair, "name") else { return nil }
        nameMark = node.mark
        if name.isBlankLabel {
            report("name must not be empty", at: node)
        } else if name.contains("/") {
            report("a profile name must not contain '/' (it names a folder of snapshots)", at: node)
        } else if name == "." || name == ".." {
            report("a profile name cannot be '\(name)'", at: node)
        } else if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            report("a profile name must not contain control characters such as line breaks", at: node)
        }
        return name
    }

    private mutating func readPages(_ pair: Pair) -> [DeckPage]? {
        let node = pair.value
        guard node.kind == .sequence else {
            if document.isPlaceholder(node) { return nil }
            let shown = document.isNull(node) ? "nothing" : node.kindDescription
            report("pages must be a list of pages, not \(shown)", at: document.isNull(node) ? pair.key : node)
            return nil
        }
        let count = document.count(node)
        guard count <= DeckConstants.maximumPages else {
            report("a profile may hold at most \(DeckConstants.maximumPages) pages, not \(count)", at: node)
            return nil
        }
        var pages: [DeckPage] = []
        pages.reserveCapacity(count)
        for offset in 0..<count {
            pages.append(readPage(document.item(node, offset)) ?? .empty(slots: slotsPerPage))
        }
        return pages
    }

    private enum PageKey: String, ProfileKeys {
        case title, buttons
        static let table = KeyTable<Self>()
    }

    private mutating func readPage(_ node: YAMLNode) -> DeckPage? {
        guard node.kind == .mapping else {
            report("a page must be a mapping with title and buttons, not \(document.isNull(node) ? "nothing" : node.kindDescription)", at: node)
            return nil
        }
        var title: Pair?, buttons: Pair?
        _ = fields(of: node, in: "page", as: PageKey.self) { key, pair in
            switch key {
            case .title: title = pair
            case .buttons: buttons = pair
            }
        }
        var page = DeckPage.empty(slots: slotsPerPage)
        page.title = optionalText(title, "title")
        guard let slots = buttons?.value, !document.isNull(slots) else { return page }
        switch slots.kind {
        case .mapping: readSlotMapping(slots, into: &page)
        case .sequence: readSlotList(slots, into: &page)
        case .scalar:
            report("buttons must be a mapping from slot numbers to buttons, or a list with ~ for empty slots, not a string", at: slots)
        }
        return page
    }

    /// `buttons: {0: {…}, 5: {…}}`: slots by 0-based index.
    private mutating func readSlotMapping(_ node: YAMLNode, into page: inout DeckPage) {
        slotLines = Array(repeating: 0, count: slotsPerPage)
        for offset in 0..<document.count(node) {
            let (key, value) = document.pair(node, offset)
            // A button in a bad slot is still read, so its own problems show too.
            let button = document.isNull(value) ? nil : readButton(value)
            guard let slot = slotNumber(key) else { continue }
            if slotLines[slot] != 0 {
                report("slot \(slot) is given twice (first at line \(slotLines[slot]))", at: key)
                continue
            }
            slotLines[slot] = key.mark.line
            page.buttons[slot] = button
        }
    }

    /// `buttons: [{…}, ~, {…}]`: one entry per slot, `~` for an empty one.
    private mutating func readSlotList(_ node: YAMLNode, into page: inout DeckPage) {
        let count = document.count(node)
        for slot in 0..<count {
            let item = document.item(node, slot)
            let button = document.isNull(item) ? nil : readButton(item)
            if slot < slotsPerPage {
                page.buttons[slot] = button
            } else if slot == slotsPerPage {
                report("slot \(slot) is outside a page of \(slotsPerPage) slots (the list has \(count) entries)", at: item)
            }
        }
    }

    /// A slot key's number, or nil after reporting why it is not one.
    private mutating func slotNumber(_ key: YAMLNode) -> Int? {
        guard let slot = wholeNumber(key) else {
            if let problem = leadingZero(key, "slot") {
                report(problem, at: key)
            } else {
                let shown = key.kind == .scalar ? "'\(document.text(key))'" : key.kindDescription
                report("slot keys must be slot numbers from 0 to \(slotsPerPage - 1), not \(shown)", at: key)
            }
            return nil
        }
        guard (0..<slotsPerPage).contains(slot) else {
            if checkSlotRange { report("slot \(slot) is outside a page of \(slotsPerPage) slots", at: key) }
            return nil
        }
        return slot
    }

    /// The problem with a number written with a leading zero (`007`), or nil
    /// when `node` is not one (or its number is outside `range`, where the
    /// field's own message says more). YAML 1.1 reads `010` as 8 where a
    /// person means 10, so such numbers are refused with this hint.
    func leadingZero(_ node: YAMLNode, _ what: String, within range: ClosedRange<Int> = 0...Int.max) -> String? {
        guard node.kind == .scalar else { return nil }
        let text = document.text(node)
        guard text.count > 1, text.first == "0", text.allSatisfy(\.isASCIIDigit),
              let number = Int(text), range.contains(number) else { return nil }
        return "\(what) '\(text)' has a leading zero, which YAML 1.1 reads as an octal number; write \(number)"
    }

    /// A whole number written in decimal (`7`, `-1`, `"7"`), or nil. Other
    /// YAML 1.1 integer forms are refused on purpose: `010` is 8 to YAML 1.1
    /// and 10 to a person, so a slot or page number must not be written that way.
    func wholeNumber(_ node: YAMLNode) -> Int? {
        guard node.kind == .scalar else { return nil }
        return document.withText(node) { bytes -> Int? in
            var digits = bytes[...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(YAML11.isDigit),
                  digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
            let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            return negative ? -value : value
        }
    }
}
