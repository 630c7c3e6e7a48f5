/// Why a plugin protocol line was not accepted. The one error type of
/// `DeckPluginKit`: each case's ``description`` is a sentence for a log.
public enum PluginLineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line is not a JSON object (`reason` says where it broke).
    case notJSON(reason: String)
    /// A JSON object without a string `type` (plugin → host) or `event`
    /// (host → plugin).
    case missingType(key: String)
    /// A message type this side does not know. Plugins ignore unknown host
    /// events (a newer host may send more); the host logs and drops unknown
    /// plugin messages.
    case unknownType(String)
    /// A known type whose fields are wrong: `reason` names the field.
    case invalidFields(type: String, reason: String)
    /// A line longer than the reader's limit.
    case tooLong(bytes: Int, limit: Int)

    /// A sentence naming what is wrong with the line.
    public var description: String {
        switch self {
        case .notJSON(let reason):
            "the line cannot be read as a JSON object (\(reason))"
        case .missingType(let key):
            "the line has no string '\(key)' naming the message"
        case .unknownType(let type):
            "unknown message type '\(type)'"
        case let .invalidFields(type, reason):
            "\(type): \(reason)"
        case let .tooLong(bytes, limit):
            "the line is longer than \(limit) bytes (at least \(bytes)); it was dropped"
        }
    }
}
