/// The `code` of an `error` reply: exactly the strings of PROTOCOL.md §4.
///
/// `docs/protocol.md` says when the host uses each one.
public enum ErrorCode: String, CaseIterable, Hashable, Sendable {
    /// Invalid UTF-8, invalid JSON, not an object, no string `type`, or a
    /// known type with a missing or wrongly typed field.
    case malformed
    /// A line longer than the host's limit; the host closes the connection.
    case tooLarge
    /// The first message was not a well-formed `hello`, or a second `hello`.
    case handshake
    /// An unknown `type`, a request above the negotiated level, or a client
    /// level below the host's minimum.
    case unsupported
    /// A missing or wrong token, `control` on TCP, or a control request on a
    /// connection that is not a control client.
    case unauthorized
    /// The slot no longer holds the button the request was made for.
    case stale
    /// A page or slot outside the layout.
    case outOfRange
    /// The host is locked; edits and presses are refused.
    case locked
    /// A well-formed request whose content breaks a rule (a button with an
    /// empty name, an action with two kinds, a broken profile on reload).
    case invalid
    /// No such profile, snapshot or device.
    case notFound
    /// A press on an empty slot.
    case empty
    /// The host is at its connection limit.
    case busy
    /// The host failed on its own side (a snapshot could not be written).
    case `internal`
}
