import DeckModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        /// Where each plugin button's settings are written (for
        /// `deckctl check --plugins`), when the file could be read.
        package var settingsSites: [SettingsSite] = []
    }

    /// Checks each file, in the order given. Besides each file's own problems,
    /// a file in the same folder as an earlier one with the same profile name
    /// gets a problem too, because the host would refuse one of them.
    /// A file named twice (`layouts/*.yaml layouts/desk.yaml`) is the same
    /// file, not a second one sharing its name: files and folders are told
    /// apart by their real paths, not by how they are spelled. A profile whose
    /// layout is larger than `maxLayoutBytes` as JSON is a problem at 1:1, as
    /// the host's load finds it (by default the host's own bound).
    public static func check(paths: [String], maxLayoutBytes: Int = DeckConstants.maximumLayoutBytes) -> [Result] {
        var owners: [String: String] = [:]
        var done: [String: Result] = [:]
        return paths.map { path in
            let real = realPath(path)
            if let real, let earlier = done[real] {
                let problems = earlier.problems.map { problem in
                    var named = problem
                    named.file = path
                    return named
                }
                let sites = earlier.settingsSites.map { site in
                    var named = site
                    named.file = path
                    return named
                }
                return Result(path: path, problems: problems, profile: earlier.profile, settingsSites: sites)
            }
            let result = checkOne(path, realPath: real, maxLayoutBytes: maxLayoutBytes, owners: &owners)
            if let real { done[real] = result }
            return result
        }
    }

    /// One file not seen before: its own problems, or the name it shares with
    /// an earlier file of its folder.
    private static func checkOne(_ path: String, realPath real: String?, maxLayoutBytes: Int,
                                 owners: inout [String: String]) -> Result {
        let outcome: DeckProfile.Reading
        do throws(DeckProfilesError) {
            outcome = DeckProfile.read(try ProfileFile.readProfileBytes(path), file: path)
        } catch {
            return Result(path: path, problems: error.problems, profile: nil)
        }
        guard let profile = outcome.profile else {
            return Result(path: path, problems: outcome.problems, profile: nil, settingsSites: outcome.sites)
        }
        if let problem = FileProblem.tooBigToSend(profile, file: path, maxLayoutBytes: maxLayoutBytes) {
            return Result(path: path, problems: [problem], profile: nil, settingsSites: outcome.sites)
        }
        let folder = (real ?? path).split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let key = folder + "\u{0}" + profile.name
        guard let owner = owners[key] else {
            owners[key] = path
            return Result(path: path, problems: [], profile: profile, settingsSites: outcome.sites)
        }
        let problem = FileProblem.sharedName(profile.name, in: path, at: outcome.nameMark, owner: owner)
        return Result(path: path, problems: [problem], profile: nil, settingsSites: outcome.sites)
    }

    /// The canonical absolute path of an existing file, or nil.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
