import DeckModel
import DeckProtocol
import DeckTransport

extension HostState {
    /// setButton, clearButton, moveButton: checked against `head`, durable
    /// before `ok`, then the layout to everyone (§5).
    mutating func edit(_ message: ClientMessage, from id: ConnectionID) -> [HostAction] {
        // After this edit is queued: a device the next batch waits for has now sent (BatchGather).
        [editCommit(message, from: id), .heard(id)]
    }

    private mutating func editCommit(_ message: ClientMessage, from id: ConnectionID) -> HostAction {
        var layout = live.head.layout
        let change: EditChange?
        let next: LiveState?
        do throws(DeckModelError) {
            change = try Self.apply(message.request, to: &layout)
            if change != nil, layout.pages.count > DeckConstants.maximumPages {
                throw DeckModelError.invalidLayout("a layout may hold at most \(DeckConstants.maximumPages) pages")
            }
            next = change.map { change in
                // Recorded with what its slots held, so a changed file can replay it (PROFILE.md §5).
                let edit = DeckEdit(kind: change.kind, slots: change.slots, from: live.head.layout, to: layout)
                return live.next(layout: layout, edits: EditRebase.recording(edit, after: live.head.edits, layout: layout))
            }
            if let size = next?.encoded.json.count, size > maxLayoutBytes, size > live.head.encoded.json.count {
                throw DeckModelError.invalidLayout("the layout would be \(size) bytes of JSON, more than the "
                    + "\(maxLayoutBytes >> 20) MiB the host sends to every device; shorten names, "
                    + "commands or settings, or clear buttons that are not used")
            }
        } catch {
            let code: ErrorCode = switch error {
            case .outOfRange: .outOfRange
            case .stale: .stale
            case .invalidButton, .invalidLayout: .invalid
            }
            return refused(ProtocolError(code, error.description, id: message.id), request: message.kind.rawValue, by: id,
                           then: .afterEdit)
        }
        guard let change, let state = next else {
            // Nothing to change (a move onto its own slot, clearing an empty
            // slot): `ok` with the current revision, and still the layout (§5).
            return .commit(Commit(Outcome([.ok(id, message.id, withRevision: true), .layoutAfterEdit([id]),
                                           .log(.debug, "\(message.kind.rawValue)\(byline(id)) changed nothing")]), sender: id))
        }
        live.accept(state)
        let (event, text) = change.describe(revision: state.revision, by: sessions[id]?.info)
        return .commit(Commit(Outcome(live: state,
                                      [.ok(id, message.id, withRevision: true), .layoutAfterEdit([id]), .event(event),
                                       .log(.info, text + byline(id))],
                                      ifWriteFails: [.refuse(id, message.id, request: message.kind.rawValue)]),
                              writeReason: message.kind.rawValue, editor: id, sender: id))
    }

    /// Applies one edit to `layout`; nil when it changes nothing.
    static func apply(_ request: ClientRequest, to layout: inout DeckLayout) throws(DeckModelError) -> EditChange? {
        switch request {
        case let .setButton(page, index, button):
            try layout.checkRange(page: page, index: index)
            let old = layout.button(page: page, index: index)
            if old == button { return nil }
            try layout.set(page: page, index: index, button: button)
            return .set(page: page, index: index, button: button.name, replaced: old?.name)
        case let .clearButton(page, index, expecting):
            try layout.checkRange(page: page, index: index)
            let old = layout.button(page: page, index: index)
            try layout.clear(page: page, index: index, expecting: expecting)
            return old.map { .clear(page: page, index: index, button: $0.name) }
        case let .moveButton(fromPage, fromIndex, toPage, toIndex, button):
            let swapped = layout.button(page: toPage, index: toIndex)
            try layout.move(fromPage: fromPage, fromIndex: fromIndex, toPage: toPage, toIndex: toIndex, expecting: button)
            if fromPage == toPage && fromIndex == toIndex { return nil }
            return .move(fromPage: fromPage, fromIndex: fromIndex, toPage: toPage, toIndex: toIndex,
                         button: button.name, swapped: swapped?.name)
        default:
            return nil
        }
    }
}

/// What an accepted edit changed, for its event and log line.
enum EditChange: Equatable {
    case set(page: Int, index: Int, button: String, replaced: String?)
    case clear(page: Int, index: Int, button: String)
    case move(fromPage: Int, fromIndex: Int, toPage: Int, toIndex: Int, button: String, swapped: String?)

    /// The request, as a generation records it.
    var kind: DeckEdit.Kind {
        switch self {
        case .set: .set
        case .clear: .clear
        case .move: .move
        }
    }

    /// The slots it touched, a move's source first.
    var slots: [DeckSlot] {
        switch self {
        case let .set(page, index, _, _), let .clear(page, index, _):
            [DeckSlot(page: page, index: index)]
        case let .move(fromPage, fromIndex, toPage, toIndex, _, _):
            [DeckSlot(page: fromPage, index: fromIndex), DeckSlot(page: toPage, index: toIndex)]
        }
    }

    /// The event, and the log line's words (CLI.md's `moved 'Files' 0/1 -> 1/0`; the caller adds `by WHO`).
    func describe(revision: Int, by: ClientInfo?) -> (DeckEvent, String) {
        let event: DeckEvent = switch self {
        case let .set(page, index, button, replaced):
            .set(page: page, index: index, button: button, replaced: replaced, revision: revision, by: by)
        case let .clear(page, index, button):
            .clear(page: page, index: index, button: button, revision: revision, by: by)
        case let .move(fromPage, fromIndex, toPage, toIndex, button, swapped):
            .move(fromPage: fromPage, fromIndex: fromIndex, toPage: toPage, toIndex: toIndex, button: button,
                  swapped: swapped, revision: revision, by: by)
        }
        return (event, event.editSummary(name: LogField.cut) ?? event.kind)
    }
}
