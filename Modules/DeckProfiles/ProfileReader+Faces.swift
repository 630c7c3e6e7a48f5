import DeckModel

// A button's `style` and `states` (docs/faces.md §1), with every problem at
// its FILE:LINE:COLUMN: unknown keys with the closest one suggested, colours
// that are neither hex nor a palette name (the closest name suggested), state
// ids that break the rules or repeat, more than eight states.

extension ProfileReader {
    private enum StyleKey: String, ProfileKeys {
        case color, background
        static let table = KeyTable<Self>()
    }

    private enum StateKey: String, ProfileKeys {
        case id, name, icon, style
        static let table = KeyTable<Self>()
    }

    /// `style: {color, background}`; nil when absent, null or broken (then reported).
    mutating func readStyle(_ pair: Pair?) -> ButtonStyle? {
        guard let pair, !document.isNull(pair.value), !document.isPlaceholder(pair.value) else { return nil }
        let node = pair.value
        guard node.kind == .mapping else {
            report("style must be a mapping such as {color: white, background: \"#1f6f3f\"}, not \(node.kindDescription)", at: node)
            return nil
        }
        var color: Pair?, background: Pair?
        _ = fields(of: node, in: "style", as: StyleKey.self) { key, pair in
            switch key {
            case .color: color = pair
            case .background: background = pair
            }
        }
        let style = ButtonStyle(color: readColor(color, "color"), background: readColor(background, "background"))
        return style.isEmpty ? nil : style
    }

    private mutating func readColor(_ pair: Pair?, _ field: String) -> DeckColor? {
        guard case .value(let text, let node) = text(pair, field) else { return nil }
        if let color = DeckColor(text) { return color }
        var message = "\(field) '\(text)' is not a colour: use #rgb, #rrggbb or one of \(DeckColor.palette.joined(separator: " "))"
        if !text.hasPrefix("#"), let closest = KeySuggestion.closest(to: text, among: DeckColor.palette + ["gray"]) {
            message = "\(field) '\(text)' is not a colour; did you mean '\(closest)'? (use #rgb, #rrggbb or one of \(DeckColor.palette.joined(separator: " ")))"
        }
        report(message, at: node)
        return nil
    }

    /// `states: [{id, name?, icon?, style?}, …]`; empty when absent or null.
    /// Returns nil when a problem was reported, so the button is not made.
    mutating func readStates(_ pair: Pair?) -> [ButtonState]? {
        guard let pair, !document.isNull(pair.value), !document.isPlaceholder(pair.value) else { return [] }
        let node = pair.value
        guard node.kind == .sequence else {
            report("states must be a list of {id, name, icon, style}, not \(node.kindDescription)", at: node)
            return nil
        }
        let count = document.count(node)
        if count == 0 {
            report("states must list at least one state (the first is the button as written); leave states out instead", at: node)
            return nil
        }
        var states: [ButtonState] = []
        var failed = false
        var firstLines: [String: Int] = [:]
        for offset in 0..<count {
            let item = document.item(node, offset)
            if offset == ButtonState.maximumCount {
                report("a button may have at most \(ButtonState.maximumCount) states; this is the \(offset + 1)th", at: item)
                failed = true
            }
            guard let (state, idNode) = readState(item) else {
                failed = true
                continue
            }
            if let line = firstLines[state.id] {
                report("state id '\(state.id)' is given twice in this button (first at line \(line))", at: idNode)
                failed = true
                continue
            }
            firstLines[state.id] = idNode.mark.line
            states.append(state)
        }
        return failed ? nil : states
    }

    private mutating func readState(_ node: YAMLNode) -> (ButtonState, YAMLNode)? {
        if document.isPlaceholder(node) { return nil }
        guard node.kind == .mapping else {
            report("a state must be a mapping such as {id: muted, name: \"Mic off\"}, not \(node.kindDescription)", at: node)
            return nil
        }
        var id: Pair?, name: Pair?, icon: Pair?, style: Pair?
        let typos = fields(of: node, in: "state", as: StateKey.self) { key, pair in
            switch key {
            case .id: id = pair
            case .name: name = pair
            case .icon: icon = pair
            case .style: style = pair
            }
        }
        let before = problems.count
        var stateID: (String, YAMLNode)?
        switch text(id, "id") {
        case .absent:
            if !typos.contains(.id) { report("a state needs an id (a-z, 0-9, '-' and '_')", at: node) }
        case .null(let key):
            report("a state needs an id (a-z, 0-9, '-' and '_')", at: key)
        case .invalid:
            break
        case .value(let text, let valueNode):
            if let problem = ButtonState.idProblem(text) { report(problem, at: valueNode) } else { stateID = (text, valueNode) }
        }
        var stateName: String?
        if case .value(let text, let valueNode) = text(name, "name") {
            if text.isBlankLabel { report("name must not be empty", at: valueNode) } else { stateName = text }
        }
        let stateIcon = optionalText(icon, "icon")
        let stateStyle = readStyle(style)
        guard let stateID, problems.count == before else { return nil }
        return (ButtonState(id: stateID.0, name: stateName, icon: stateIcon, style: stateStyle), stateID.1)
    }
}
