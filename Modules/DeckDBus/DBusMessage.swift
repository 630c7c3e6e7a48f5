/// A message a ``DBusConnection`` received, copied out of sd-bus so a state
/// machine and its tests never hold a C pointer.
public struct DBusMessage: Hashable, Sendable {
    /// What kind of message it is.
    public enum Kind: Hashable, Sendable {
        /// A signal a match (``DBusConnection/addMatch(_:)``) let through.
        case signal
        /// The answer to a call, by the cookie ``DBusConnection/call(destination:path:interface:member:arguments:timeoutMicroseconds:)`` returned.
        case reply(cookie: UInt64)
        /// A failed call: the error's name (`org.freedesktop.DBus.Error.NoReply` for a timeout) and text.
        case error(cookie: UInt64, name: String, message: String)
    }

    /// Signal, reply or error.
    public var kind: Kind
    /// The unique bus name of the sender (`:1.42`; `org.freedesktop.DBus` for the bus itself), empty when absent.
    public var sender: String
    /// The object path of a signal, empty for replies.
    public var path: String
    /// The interface of a signal, empty for replies.
    public var interface: String
    /// The member (signal name) of a signal, empty for replies.
    public var member: String
    /// The body's values, read within the connection's ``DBusLimits``.
    public var body: [DBusValue]

    /// Makes a message (tests of a state machine build them by hand).
    public init(kind: Kind, sender: String = "", path: String = "", interface: String = "", member: String = "",
                body: [DBusValue] = []) {
        self.kind = kind
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.body = body
    }
}
