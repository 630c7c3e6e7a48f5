/// What can go wrong between the plugin and OBS, each a sentence a user can act on.
public enum ObsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `url` setting is not `ws://HOST:PORT`.
    case badURL(String)
    /// The server's answer to the WebSocket upgrade was not one.
    case handshake(String)
    /// The server broke the WebSocket or obs-websocket protocol.
    case protocolViolation(String)
    /// The socket failed (connect refused, reset, closed).
    case socket(String)

    /// The sentence for the log and `deckctl plugins obs`.
    public var description: String {
        switch self {
        case .badURL(let url):
            "the OBS address '\(url)' is not ws://HOST:PORT (wss:// is not supported yet; obs-websocket listens on ws://127.0.0.1:4455 by default)"
        case .handshake(let why): "OBS did not accept the WebSocket upgrade: \(why)"
        case .protocolViolation(let why): "OBS sent something obs-websocket v5 does not allow: \(why)"
        case .socket(let why): why
        }
    }
}
