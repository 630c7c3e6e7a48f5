/// A request the host refuses, or a line that cannot be decoded: the error
/// code, a sentence a person can act on, and the request's `id` when the
/// line had a readable one.
///
/// This is DeckProtocol's one error type. ``reply`` is the `error` message
/// to send back, so a failed decode is answered in one line of host code.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure (the wire `code`).
    public var code: ErrorCode
    /// The human sentence (the wire `message`).
    public var message: String
    /// The id to echo, or nil when the request had none (or none could be read).
    public var id: RequestID?
    /// The `type` the line named, when it was read before decoding failed
    /// (nil for a line that is not JSON or has no string `type`). The host
    /// names the refused request with it, so it never parses a line twice.
    public var type: String?

    /// Makes an error; `message` should say what was wrong and what to do.
    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil, type: String? = nil) {
        self.code = code
        self.message = message
        self.id = id
        self.type = type
    }

    /// `code: message`, as `deckctl` prints a refusal.
    public var description: String { "\(code.rawValue): \(message)" }

    /// The `error` reply for this failure, with the id echoed.
    public var reply: HostMessage { .error(id: id, code: code, message: message) }
}
