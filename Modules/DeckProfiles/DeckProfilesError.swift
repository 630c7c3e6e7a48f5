/// Everything that can go wrong reading profiles, as a sentence a person can act on.
public enum DeckProfilesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file has problems (all of them, in reading order); it is not loaded.
    case invalid([FileProblem])
    /// No profile of that name in the folder.
    case notFound(profile: String, folder: String, available: [String])
    /// The layouts folder itself cannot be listed.
    case unreadableFolder(path: String, reason: String)

    /// One line per problem (`FILE:LINE:COLUMN: message`), or one sentence.
    public var description: String {
        switch self {
        case .invalid(let problems):
            return problems.map(\.description).joined(separator: "\n")
        case let .notFound(profile, folder, available):
            let known = available.isEmpty ? "it holds no valid profile" : "it holds " + available.joined(separator: ", ")
            return "there is no profile named '\(profile)' in \(folder) (\(known))"
        case let .unreadableFolder(path, reason):
            return "cannot read the layouts folder \(path): \(reason)"
        }
    }

    /// The problems of an `invalid` error; empty for the other cases.
    public var problems: [FileProblem] {
        if case .invalid(let problems) = self { return problems }
        return []
    }
}
