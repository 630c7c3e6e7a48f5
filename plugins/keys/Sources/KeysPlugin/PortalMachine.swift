import DeckDBus

/// One key going down or up, by keysym, as NotifyKeyboardKeysym sends it.
package struct PortalKey: Hashable, Sendable {
    /// The keysym.
    package var keysym: Keysym
    /// Down (true) or up.
    package var pressed: Bool

    /// Makes one.
    package init(_ keysym: Keysym, pressed: Bool) {
        self.keysym = keysym
        self.pressed = pressed
    }
}

/// The RemoteDesktop portal handshake and session, without a bus: each
/// input returns the actions the caller performs in order; tests drive it
/// directly with hand-made messages.
///
/// CreateSession → SelectDevices (keyboard, `persist_mode` 2, the saved
/// `restore_token`) → Start; each answers with a Request object whose
/// `Response` signal carries the result. The match for that signal is added
/// before the call, on the path the portal documents
/// (`/org/freedesktop/portal/desktop/request/SENDER/TOKEN`, SENDER the
/// unique name without `:` and with `.` as `_`), so a fast answer is never missed.
package struct PortalMachine: Sendable {
    package static let destination = "org.freedesktop.portal.Desktop"
    package static let objectPath = "/org/freedesktop/portal/desktop"
    package static let interface = "org.freedesktop.portal.RemoteDesktop"
    /// SelectDevices' `types` bit for the keyboard.
    package static let keyboard: UInt32 = 1
    /// `persist_mode` 2: until the user revokes it (a restore token comes back).
    package static let persistUntilRevoked: UInt32 = 2

    /// The calls the machine makes, by what it waits for.
    package enum Step: Hashable, Sendable {
        case createSession, selectDevices, start, notify, closeSession
    }

    /// One method call.
    package struct Call: Hashable, Sendable {
        package var step: Step
        package var path: String
        package var interface: String
        package var member: String
        package var arguments: [DBusValue]
    }

    /// What the caller does.
    package enum Action: Hashable, Sendable {
        /// Add this match rule (before the call that follows it).
        case subscribe(String)
        /// Make this call; feed its reply or error back with ``reply(_:body:)`` / ``refused(_:name:message:)``.
        case call(Call)
        /// Keep this restore token in the plugin's state folder.
        case saveToken(String)
        /// The condition changed (status, button titles).
        case changed(PortalCondition)
    }

    private enum State: Hashable, Sendable {
        case idle
        /// Waiting for the `Response` on `request` for `step`.
        case waiting(Step, request: String, session: String?)
        case started(session: String)
        case ended(PortalCondition)
    }

    private var state: State = .idle
    private var sender = ""
    private var restoreToken: String?
    private var serial = 0

    /// A machine that has not started.
    package init() {}

    /// The condition now.
    package var condition: PortalCondition {
        switch state {
        case .idle, .waiting: .starting(restoring: restoreToken != nil)
        case .started: .ready(restored: restoreToken != nil)
        case .ended(let condition): condition
        }
    }

    /// Connected as `uniqueName` (`:1.42`), with the token saved last time (nil: ask).
    package mutating func start(uniqueName: String, restoreToken: String?) -> [Action] {
        guard case .idle = state else { return [] }
        sender = String(uniqueName.drop { $0 == ":" }).replacingDots()
        self.restoreToken = restoreToken.flatMap { $0.isEmpty ? nil : $0 }
        let portalGone = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(Self.destination)'"
        var actions: [Action] = [.subscribe(portalGone), .changed(condition)]
        actions += request(.createSession, session: nil, member: "CreateSession") { token in
            [.dictionary(["handle_token": .string(token), "session_handle_token": .string("deck_keys_session")])]
        }
        return actions
    }

    /// The reply to a call: the Request path it returned (older portals may
    /// not use the documented one: then that one is followed too).
    package mutating func reply(_ step: Step, body: [DBusValue]) -> [Action] {
        guard case let .waiting(waiting, request, session) = state, waiting == step,
              let returned = body.first?.string, returned != request else { return [] }
        state = .waiting(step, request: returned, session: session)
        return [.subscribe(Self.responseRule(returned))]
    }

    /// A call failed.
    package mutating func refused(_ step: Step, name: String, message: String) -> [Action] {
        switch (state, step) {
        case (.ended, _), (_, .closeSession): return []
        case (.started, .notify):
            return end(.failed("the portal refused a key (\(name): \(message))"))
        default:
            return end(.failed("the portal refused \(Self.member(step)) (\(name): \(message))"))
        }
    }

    /// A signal arrived.
    package mutating func signal(_ message: DBusMessage) -> [Action] {
        if message.member == "NameOwnerChanged", message.body.count == 3, message.body[0].string == Self.destination,
           message.body[2].string == "" {
            return end(.portalGone)
        }
        switch state {
        case let .waiting(step, request, session) where message.member == "Response" && message.path == request:
            return response(step, session: session, body: message.body)
        case .started(let session) where message.member == "Closed" && message.path == session,
             .waiting(_, _, let session?) where message.member == "Closed" && message.path == session:
            return end(.closed)
        default:
            return []
        }
    }

    /// The bus connection broke.
    package mutating func busLost(_ reason: String) -> [Action] {
        // A dying bus daemon may first say the portal left: the bus's own loss is the news that stands.
        if case .ended(.portalGone) = state {
            state = .ended(.busLost(reason))
            return [.changed(.busLost(reason))]
        }
        return end(.busLost(reason))
    }

    /// Keys to send: NotifyKeyboardKeysym each, in order, once started (nothing before: the caller refused them).
    package func keys(_ keys: [PortalKey]) -> [Action] {
        guard case .started(let session) = state else { return [] }
        return keys.map { key in
            .call(Call(step: .notify, path: Self.objectPath, interface: Self.interface, member: "NotifyKeyboardKeysym",
                       arguments: [.objectPath(session), .dictionary([:]), .int32(Int32(bitPattern: key.keysym)),
                                   .uint32(key.pressed ? 1 : 0)]))
        }
    }

    /// The plugin stops: a started session is closed.
    package mutating func stop() -> [Action] {
        let session: String?
        switch state {
        case .started(let started): session = started
        case .waiting(_, _, let waiting): session = waiting
        default: session = nil
        }
        var actions = end(.stopped)
        if let session {
            actions.insert(.call(Call(step: .closeSession, path: session, interface: "org.freedesktop.portal.Session",
                                      member: "Close", arguments: [])), at: 0)
        }
        return actions
    }

    private mutating func response(_ step: Step, session: String?, body: [DBusValue]) -> [Action] {
        guard let code = body.first?.integer else { return end(.failed("the portal's \(Self.member(step)) answer has no response code")) }
        switch code {
        case 0: break
        case 1: return end(.denied)
        case 2: return end(.cancelled)
        default: return end(.failed("the portal ended \(Self.member(step)) with response code \(code)"))
        }
        let results = body.count > 1 ? body[1].dictionary ?? [:] : [:]
        switch step {
        case .createSession:
            guard let handle = results["session_handle"]?.string, !handle.isEmpty else {
                return end(.failed("the portal's CreateSession answer has no session_handle"))
            }
            let closed = "type='signal',interface='org.freedesktop.portal.Session',member='Closed',path='\(handle)'"
            let restoreToken = restoreToken
            return [.subscribe(closed)] + request(.selectDevices, session: handle, member: "SelectDevices") { token in
                var options: [String: DBusValue] = ["handle_token": .string(token), "types": .uint32(Self.keyboard),
                                                    "persist_mode": .uint32(Self.persistUntilRevoked)]
                if let restoreToken { options["restore_token"] = .string(restoreToken) }
                return [.objectPath(handle), .dictionary(options)]
            }
        case .selectDevices:
            guard let session else { return [] }
            return request(.start, session: session, member: "Start") { token in
                [.objectPath(session), .string(""), .dictionary(["handle_token": .string(token)])]
            }
        case .start:
            guard let session else { return [] }
            let devices = results["devices"]?.integer ?? 0
            guard devices & Int64(Self.keyboard) != 0 else {
                return end(.failed("the desktop started the session without the keyboard (devices \(devices))"))
            }
            let issued = results["restore_token"]?.string
            let restored = restoreToken != nil
            state = .started(session: session)
            var actions: [Action] = []
            if let issued, !issued.isEmpty, issued != restoreToken { actions.append(.saveToken(issued)) }
            actions.append(.changed(.ready(restored: restored)))
            return actions
        case .notify, .closeSession:
            return []
        }
    }

    /// Subscribes to the Response of the next request, then calls.
    private mutating func request(_ step: Step, session: String?, member: String,
                                  arguments: (String) -> [DBusValue]) -> [Action] {
        serial += 1
        let token = "deck_keys_\(serial)"
        let path = "\(Self.objectPath)/request/\(sender)/\(token)"
        state = .waiting(step, request: path, session: session)
        return [.subscribe(Self.responseRule(path)),
                .call(Call(step: step, path: Self.objectPath, interface: Self.interface, member: member, arguments: arguments(token)))]
    }

    private mutating func end(_ condition: PortalCondition) -> [Action] {
        if case .ended = state { return [] }
        state = .ended(condition)
        return [.changed(condition)]
    }

    private static func responseRule(_ path: String) -> String {
        "type='signal',interface='org.freedesktop.portal.Request',member='Response',path='\(path)'"
    }

    private static func member(_ step: Step) -> String {
        switch step {
        case .createSession: "CreateSession"
        case .selectDevices: "SelectDevices"
        case .start: "Start"
        case .notify: "NotifyKeyboardKeysym"
        case .closeSession: "Session.Close"
        }
    }
}

extension String {
    fileprivate func replacingDots() -> String {
        String(map { $0 == "." ? "_" : $0 })
    }
}
