/// A message the plugin received, copied out of sd-bus so the state machine
/// and tests never hold a C pointer.
package struct DBusMessage: Hashable, Sendable {
    /// What kind of message it is.
    package enum Kind: Hashable, Sendable {
        /// A signal (`PropertiesChanged`, `NameOwnerChanged`).
        case signal
        /// The answer to one of the plugin's calls, by the call's cookie.
        case reply(cookie: UInt64)
        /// A failed call: the error's name and text.
        case error(cookie: UInt64, name: String, message: String)
    }

    /// Signal, reply or error.
    package var kind: Kind
    /// The unique bus name of the sender (`:1.42`), empty when absent.
    package var sender: String
    /// The object path, empty for replies.
    package var path: String
    /// The interface, empty for replies.
    package var interface: String
    /// The member (signal name), empty for replies.
    package var member: String
    /// The body's values, read within ``DBusLimits``.
    package var body: [DBusValue]

    /// Makes a message (tests build them by hand).
    package init(kind: Kind, sender: String = "", path: String = "", interface: String = "", member: String = "",
                 body: [DBusValue] = []) {
        self.kind = kind
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.body = body
    }
}

/// An argument of a call the plugin makes: only the types MPRIS calls take.
package enum DBusArgument: Hashable, Sendable {
    /// `s`.
    case string(String)
    /// `x` (Seek's offset in microseconds).
    case int64(Int64)
}

/// The errors of the media plugin's bus: each a sentence a user can act on.
package struct MediaError: Error, CustomStringConvertible, Hashable, Sendable {
    /// What went wrong.
    package var description: String

    /// An error from sd-bus: `what` failed with the negative errno `code`.
    package init(_ what: String, code: Int32) {
        description = "\(what) failed: \(MediaError.errnoText(-code)) (errno \(-code))"
    }

    /// An error with its own text.
    package init(_ text: String) {
        description = text
    }

    static func errnoText(_ number: Int32) -> String {
        guard let text = strerror(number) else { return "unknown error" }
        return String(cString: text)
    }
}

#if canImport(Glibc)
import Glibc
#endif
