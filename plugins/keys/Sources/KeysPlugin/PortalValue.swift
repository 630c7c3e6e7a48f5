/// A value read from a message of the portal (a reply, a `Response`): only
/// what the handshake reads is kept, anything else is ``other``.
package enum PortalValue: Hashable, Sendable {
    /// `s`, `o` or `g`.
    case string(String)
    /// Any integer type (`y n q i u x t`), widened.
    case number(Int64)
    /// `b`.
    case bool(Bool)
    /// `a{s…}` (the portal's vardicts), by key.
    case dictionary([String: PortalValue])
    /// Any other array.
    case array([PortalValue])
    /// Something the back end does not read (a structure, a double, a file descriptor).
    case other

    /// The text of a string or object path.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number of an integer value.
    package var number: Int64? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The entries of a vardict.
    package var dictionary: [String: PortalValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }
}

/// An argument of a call the portal back end makes.
package enum PortalArgument: Hashable, Sendable {
    /// `s`.
    case string(String)
    /// `o`.
    case objectPath(String)
    /// `i` (NotifyKeyboardKeysym's keysym).
    case int32(Int32)
    /// `u` (its key state).
    case uint32(UInt32)
    /// `a{sv}`, written in key order so calls are the same every time.
    case options([String: PortalOption])
}

/// A value of an `a{sv}` option the back end sends.
package enum PortalOption: Hashable, Sendable {
    /// `s` (`handle_token`, `restore_token`).
    case string(String)
    /// `u` (`types`, `persist_mode`).
    case uint32(UInt32)
}

/// A message the bus delivered, copied out of sd-bus.
package struct PortalMessage: Hashable, Sendable {
    /// What it answers, or that it is a signal.
    package enum Kind: Hashable, Sendable {
        /// A signal (`Response`, `Closed`, `NameOwnerChanged`).
        case signal
        /// The reply to the call with this cookie.
        case reply(cookie: UInt64)
        /// The call with this cookie failed.
        case error(cookie: UInt64, name: String, message: String)
    }

    /// Signal, reply or error.
    package var kind: Kind
    /// Object path of a signal.
    package var path: String
    /// Interface of a signal.
    package var interface: String
    /// Member of a signal.
    package var member: String
    /// The body.
    package var body: [PortalValue]

    /// Makes a message (tests build them by hand).
    package init(kind: Kind, path: String = "", interface: String = "", member: String = "", body: [PortalValue] = []) {
        self.kind = kind
        self.path = path
        self.interface = interface
        self.member = member
        self.body = body
    }
}
