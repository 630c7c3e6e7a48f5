import DeckProtocol

/// Turns what a subscribed control client receives into the lines
/// `deckctl watch` prints: one line per event (a failed reload adds one
/// line per problem under it).
///
/// A `layout` broadcast is shown only for a revision no event reports: the
/// host sends the layout of an edit just before the edit's event, so a new
/// revision's layout is held back (``pendingLayout``) until the next line
/// shows whether an event tells the same story with who did it; the caller
/// flushes it when nothing follows soon. `lock` broadcasts are left to the
/// `lock` event, which says who or what locked.
struct EventText {
    /// The newest revision already reported.
    private(set) var revision: Int
    /// A layout line held back, and its revision.
    private(set) var pendingLayout: (revision: Int, line: String)?
    /// The revision of the newest layout broadcast that no event has
    /// reported yet (held back or already flushed): an event of the same
    /// revision made that layout. A `reload` event that finds none (and no
    /// newer revision) changed nothing: the live profile's file was as
    /// it is live, and the host only said so.
    private var unclaimedLayout: Int?
    /// Whether control clients (deckctl itself, scripts) joining and leaving
    /// are shown: each deckctl command is a connection of its own, so they
    /// would double the lines of every command.
    let showsControlClients: Bool

    /// A printer that has reported `revision` (the welcome's).
    init(revision: Int, showsControlClients: Bool = false) {
        self.revision = revision
        self.showsControlClients = showsControlClients
    }

    /// The lines for one line from the host.
    mutating func lines(for line: HostLine) -> [String] {
        guard let message = line.message else { return flush() + ["message \(line.text)"] }
        switch message {
        case .event(let event):
            if !showsControlClients, let client = Self.connectingClient(event), client.kind == Device.controlKind { return [] }
            var lines: [String] = []
            let eventRevision = Self.revision(of: event)
            let madeLayout = eventRevision.map { $0 > revision || $0 == unclaimedLayout } ?? false
            if eventRevision != nil { unclaimedLayout = nil }
            if let pending = pendingLayout {
                pendingLayout = nil
                revision = max(revision, pending.revision)
                // Dropped when the event reports this revision, and who made it.
                if eventRevision != pending.revision { lines.append(pending.line) }
            }
            return lines + describe(event, raw: line.text, madeLayout: madeLayout)
        case let .layout(profile, revision, layout, _, _):
            guard revision != self.revision else { return [] }
            let earlier = flush()
            unclaimedLayout = revision
            let pages = layout.pages.count, buttons = layout.buttonCount
            pendingLayout = (revision, "layout of '\(Label.clean(profile))' is now revision \(revision) "
                                      + "(\(pages) \(plural(pages, "page")), \(buttons) \(plural(buttons, "button")))")
            return earlier
        case let .buttonState(page, index, title):
            return [title.map { "button \(page)/\(index) shows '\(Label.clean($0))'" } ?? "button \(page)/\(index) shows its name again"]
        case .buttonFace(let face):
            return [Self.describe(face)]
        case .lock, .ok, .pong, .welcome, .status, .profiles, .snapshots, .export, .paired, .devices, .showPage:
            return []
        case let .error(_, code, text, _):
            return flush() + ["host error \(code.rawValue): \(text)"]
        }
    }

    /// `button 0/3 face: state muted, title 'Live', image 9f2c4e1a (image/png), flash ok`.
    static func describe(_ face: ButtonFace) -> String {
        var parts: [String] = []
        if let state = face.state { parts.append("state \(Label.clean(state))") }
        if let title = face.title { parts.append("title '\(Label.clean(title))'") }
        if let image = face.image { parts.append("image \(image.hash.prefix(8)) (\(image.type))") }
        if let flash = face.flash { parts.append("flash \(flash.rawValue)") }
        let slot = "button \(face.page)/\(face.index)"
        if face.isDefault { return slot + " face is the default again" + (face.flash.map { ", flash \($0.rawValue)" } ?? "") }
        return slot + " face: " + parts.joined(separator: ", ")
    }

    /// The held-back layout line, if any, now: no event reported its revision.
    mutating func flush() -> [String] {
        guard let pending = pendingLayout else { return [] }
        pendingLayout = nil
        revision = max(revision, pending.revision)
        return [pending.line]
    }

    /// The client of a `join` or `leave`.
    static func connectingClient(_ event: DeckEvent) -> ClientInfo? {
        switch event {
        case .join(let client), .leave(let client, _): client
        default: nil
        }
    }

    /// The revision an event reports, if it makes one.
    static func revision(of event: DeckEvent) -> Int? {
        switch event {
        case .set(_, _, _, _, let revision, _), .clear(_, _, _, let revision, _),
             .move(_, _, _, _, _, _, let revision, _), .profile(_, let revision, _), .restore(_, _, let revision, _):
            revision
        case .reload(_, let revision, _, _, _):
            revision
        case .refused, .press, .action, .lock, .join, .leave, .plugin, .unknown:
            nil
        }
    }

    /// `madeLayout`: the event's revision is a new layout (not one already
    /// reported), which tells a reload that replaced the live layout from
    /// one that found the file unchanged.
    private mutating func describe(_ event: DeckEvent, raw: String, madeLayout: Bool) -> [String] {
        switch event {
        case .set(_, _, _, _, let revision, let by), .clear(_, _, _, let revision, let by),
             .move(_, _, _, _, _, _, let revision, let by):
            // The host's log line for the edit (CLI.md), and the revision it made.
            self.revision = revision
            return ["\(event.editSummary(name: Label.clean) ?? event.kind)\(who(by)), revision \(revision)"]
        case let .refused(request, code, message, by):
            let from = by.map { " from \(Label.clean($0.name))" } ?? ""
            return ["refused \(request)\(from): \(code.rawValue): \(Label.clean(message))"]
        case let .press(page, index, button, phase, by):
            let edge = phase == .tap ? "" : " (\(phase.rawValue))"
            return ["pressed '\(Label.clean(button))' at \(page)/\(index)\(edge)\(who(by))"]
        case let .action(page, index, button, action, outcome, by):
            let presser = by.map { ", pressed by \(Label.clean($0.name))" } ?? ""
            return ["'\(Label.clean(button))' at \(page)/\(index) (\(action)\(presser)): \(Self.describe(outcome, action: action))"]
        case let .lock(locked, source, by):
            let state = locked ? "locked" : "unlocked"
            if source == .probe { return ["\(state) by the lock probe (the desktop session \(locked ? "locked" : "unlocked"))"] }
            return [state + (by.map { " by \(Label.clean($0.name))" } ?? " (manual lock)")]
        case .join(let client):
            return ["\(Label.clean(client.name)) joined (\(client.kind), \(client.address), protocol \(client.protocolLevel))"]
        case let .leave(client, reason):
            return ["\(Label.clean(client.name)) left (\(Self.leaveReason(reason)))"]
        case let .reload(profile, revision, problems, dropped, by):
            if problems.isEmpty, !dropped.isEmpty, let revision {
                // A rebase that could not keep every device edit: each is named.
                self.revision = revision
                return ["reloaded '\(Label.clean(profile))' from its file\(who(by)), revision \(revision); "
                        + "\(dropped.count) device \(plural(dropped.count, "edit")) dropped:"]
                    + dropped.map { "  " + Label.clean($0.description) }
            }
            if problems.isEmpty {
                guard let revision else { return ["reloaded '\(Label.clean(profile))' from its file\(who(by))"] }
                guard madeLayout else {
                    // The host's log line for it: nothing was replaced.
                    return ["reloaded the profiles\(who(by)); '\(Label.clean(profile))' did not change, its live layout stays, "
                            + "revision \(revision)"]
                }
                self.revision = revision
                return ["reloaded '\(Label.clean(profile))' from its file\(who(by)), revision \(revision)"]
            }
            let count = "\(problems.count) \(plural(problems.count, "problem"))"
            return ["reload of '\(Label.clean(profile))'\(who(by)) found \(count); the live layout stays as it was:"]
                + problems.map { "  " + Label.clean($0.description) }
        case let .profile(profile, revision, by):
            self.revision = revision
            return ["switched to profile '\(Label.clean(profile))'\(who(by)), revision \(revision)"]
        case let .restore(profile, generation, revision, by):
            self.revision = revision
            return ["restored snapshot \(generation) of '\(Label.clean(profile))'\(who(by)), revision \(revision)"]
        case .plugin(let plugin):
            let message = plugin.message.isEmpty ? "" : ": \(Label.clean(plugin.message))"
            let state = ["stopped", "failed"].contains(plugin.state) ? plugin.state : "is \(Label.clean(plugin.state))"
            return ["plugin \(Label.clean(plugin.id)) \(state)\(message)"]
        case .unknown(let kind):
            return ["event '\(kind)': \(raw)"]
        }
    }

    private func who(_ client: ClientInfo?) -> String {
        client.map { " by \(Label.clean($0.name))" } ?? ""
    }

    /// How an action ended, in words.
    /// `action` is the action's kind (`run`, `plugin`…): `delivered` means
    /// a plugin took the press, a `page` was sent to the device, or a
    /// `profile` switch was made (its own event says to which revision).
    static func describe(_ outcome: ActionOutcome, action: String) -> String {
        switch outcome {
        case .exited(let status): status == 0 ? "finished (exit status 0)" : "failed with exit status \(status)"
        case .signalled(let signal): "was ended by signal \(signal)"
        case .timedOut(let seconds): "was stopped after its timeout of \(Self.seconds(seconds))"
        case .delivered:
            switch action {
            case "plugin": "delivered to its plugin"
            case "page": "the page was sent to the device that pressed it"
            default: "done"
            }
        case .openerMissing: "could not open: no opener (xdg-open) is installed"
        case .pluginUnavailable(let plugin): "plugin '\(Label.clean(plugin))' is not available"
        case .failed(let reason): "could not run: \(Label.clean(reason))"
        }
    }

    /// Why a client left, in words.
    static func leaveReason(_ reason: String) -> String {
        switch reason {
        case "closed": "it closed the connection"
        case "tooLarge": "it sent a line longer than the host accepts"
        case "slow": "it did not read what the host sent"
        case "unpaired": "its device was unpaired"
        case "shutdown": "the host is stopping"
        case "error": "the connection broke"
        case "handshake": "it did not finish its hello in time"
        default: Label.clean(reason)
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }
}

/// `word` or `words`.
func plural(_ count: Int, _ word: String) -> String {
    count == 1 ? word : word + "s"
}
