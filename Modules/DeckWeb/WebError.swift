/// What went wrong in DeckWeb, as a sentence the user can act on.
public enum WebError: Error, Sendable, CustomStringConvertible {
    /// The machine ran out of something (memory) making a connection's state.
    case resource(String)
    /// The web files folder cannot be used.
    case webRoot(path: String, why: String)

    /// The sentence.
    public var description: String {
        switch self {
        case .resource(let why): return why
        case let .webRoot(path, why): return "the web app folder \(path) \(why); pass --web-root DIR or reinstall with make install"
        }
    }
}
