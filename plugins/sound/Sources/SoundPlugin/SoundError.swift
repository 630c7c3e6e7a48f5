/// What went wrong in the sound plugin, as a sentence a user can act on.
public enum SoundError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A button's settings cannot be used; the text says which and why.
    case badSettings(String)
    /// The sound server cannot be reached or refused the connection.
    case server(String)
    /// libpulse could not be set up (out of memory, a broken installation).
    case library(String)

    /// The sentence for the log.
    public var description: String {
        switch self {
        case .badSettings(let why): "bad settings: \(why)"
        case .server(let why): "the sound server is not available: \(why)"
        case .library(let why): "libpulse failed: \(why)"
        }
    }
}
