import DeckModel
import DeckProtocol
import DeckTransport
import LockGate

extension HostCore {
    /// Every request of an established connection, rights already checked.
    func handle(_ message: ClientMessage, from session: Session) {
        // docs/faces.md §1: below level 8 a button compares by name, icon and action.
        let message = level(of: session) < 8
            ? ClientMessage(id: message.id, message.request.upgradingLevel7Buttons(in: live.head.layout)) : message
        let kind = message.kind
        if refusedByLock(kind, id: message.id, from: session) { return }
        switch message.request {
        case .setButton, .clearButton, .moveButton:
            edit(message, from: session)
        case let .press(page, index, button, phase):
            press(page: page, index: index, expecting: button, phase: phase, id: message.id, from: session)
        case .ping:
            submit(Outcome([.send(session.connection.id, .pong(id: message.id))]), from: session)
        case .hello:
            // The decoder already refuses a second hello; kept total for the compiler.
            submit(Outcome(refusal(ProtocolError(.handshake, "this connection has already said hello", id: message.id),
                                   request: kind.rawValue, session: session)), from: session)
        default:
            control(message, from: session)
        }
    }

    /// While locked, refuses a gated request (`error locked`, then the layout
    /// to the refused sender only, §6) and returns true; otherwise false.
    func refusedByLock(_ kind: RequestKind, id: RequestID?, from session: Session) -> Bool {
        guard case .refuse(let reason) = LockGate.decide(kind, locked: lock.isLocked) else { return false }
        submit(Outcome(refusal(ProtocolError(.locked, reason, id: id), request: kind.rawValue, session: session,
                               then: .toSender)), from: session)
        return true
    }

    /// setButton, clearButton, moveButton: checked against `head`, durable
    /// before `ok`, then the layout to everyone (§5).
    private func edit(_ message: ClientMessage, from session: Session) {
        let id = session.connection.id
        // After this edit is queued: a device the next batch waits for has now sent (BatchGather).
        defer { heard(from: id) }
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
            if let size = next?.encoded.json.count, size > services.configuration.maxLayoutBytes, size > live.head.encoded.json.count {
                throw DeckModelError.invalidLayout("the layout would be \(size) bytes of JSON, more than the "
                    + "\(services.configuration.maxLayoutBytes >> 20) MiB the host sends to every device; shorten names, "
                    + "commands or settings, or clear buttons that are not used")
            }
        } catch {
            let code: ErrorCode = switch error {
            case .outOfRange: .outOfRange
            case .stale: .stale
            case .invalidButton, .invalidLayout: .invalid
            }
            submit(Outcome(refusal(ProtocolError(code, error.description, id: message.id), request: message.kind.rawValue,
                                   session: session, then: .afterEdit)), from: session)
            return
        }
        guard let change, let state = next else {
            // Nothing to change (a move onto its own slot, clearing an empty
            // slot): `ok` with the current revision, and still the layout (§5).
            submit(Outcome([.ok(id, message.id, withRevision: true), .layoutAfterEdit(id),
                            .log(.debug, "\(message.kind.rawValue)\(byline(session)) changed nothing")]), from: session)
            return
        }
        live.accept(state)
        let (event, text) = change.describe(revision: state.revision, by: session.info)
        submit(Outcome(live: state,
                       [.ok(id, message.id, withRevision: true), .layoutAfterEdit(id), .event(event),
                        .log(.info, text + byline(session))],
                       ifWriteFails: [.refuse(id, message.id, request: message.kind.rawValue)]),
               write: state.snapshot(reason: message.kind.rawValue), editor: id, from: session)
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
