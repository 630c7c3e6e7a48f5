/// Checks profile files without a running host: what `deckctl check` does.
public enum ProfileCheck {
    /// The outcome for one file.
    public struct Result: Hashable, Sendable {
        /// The path as given.
        public let path: String
        /// Every problem, sorted by position; empty when the file is good.
        public let problems: [FileProblem]
        /// The profile, when the file is good.
        public let profile: DeckProfile?
    }

    /// Checks each file, in the order given. Besides each file's own problems,
    /// a file in the same folder as an earlier one with the same profile name
    /// gets a problem too, because the host would refuse one of them.
    public static func check(paths: [String]) -> [Result] {
        var owners: [String: String] = [:]
        return paths.map { path in
            let outcome: (profile: DeckProfile?, problems: [FileProblem], nameMark: YAMLMark?)
            do throws(DeckProfilesError) {
                outcome = DeckProfile.read(try ProfileFile.readProfileBytes(path), file: path)
            } catch {
                return Result(path: path, problems: error.problems, profile: nil)
            }
            guard let profile = outcome.profile else { return Result(path: path, problems: outcome.problems, profile: nil) }
            let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            let key = folder + "\u{0}" + profile.name
            guard let owner = owners[key] else {
                owners[key] = path
                return Result(path: path, problems: [], profile: profile)
            }
            let problem = FileProblem.sharedName(profile.name, in: path, at: outcome.nameMark, owner: owner)
            return Result(path: path, problems: [problem], profile: nil)
        }
    }
}
