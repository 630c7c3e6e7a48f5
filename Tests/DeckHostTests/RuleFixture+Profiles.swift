import DeckModel
import DeckProtocol
import DeckSnapshots
import Foundation
import Testing
@testable import DeckHost
@testable import DeckProfiles

/// Profile files as a scan of the layouts folder reads them, from YAML
/// text and with no disk: the real parser gives the real problems (with
/// their lines and columns) and the name marks a shared name is found at.
extension Rules {
    /// `text` read as the file `name` of `/layouts` (its fingerprint from its bytes).
    static func read(_ name: String, _ text: String) -> ProfileCatalog.File {
        let path = "/layouts/" + name
        let bytes = Array(text.utf8)
        let reading = DeckProfile.read(bytes, file: path)
        return ProfileCatalog.File(path: path, fingerprint: FileFingerprint(file: name, contents: bytes), profile: reading.profile,
                                   problems: reading.problems, nameMark: reading.nameMark, wasRead: true,
                                   settingsSites: reading.sites)
    }

    /// The folder holding `files` (name → YAML), as one scan reads it.
    static func folder(_ files: [String: String]) -> ProfileCatalog {
        ProfileCatalog(folder: "/layouts", files: files.keys.sorted().map { read($0, files[$0] ?? "") })
    }

    /// The host as it starts serving `files`: `live` loaded from its file
    /// (revision 5, its source that file's fingerprint), the catalog that scan.
    static func serving(_ files: [String: String], live name: String = "default") throws -> HostState {
        let catalog = folder(files)
        let file = try #require(catalog.profile(named: name), "no valid profile '\(name)' in \(catalog.problems)")
        var state = try Self.host(layout: file.profile.layout)
        state.catalog = catalog
        state.live = try LiveLayout(LiveState(profile: name, revision: 5, layout: file.profile.layout,
                                              source: ProfileResolver.snapshotSource(of: file.fingerprint)))
        return state
    }

    /// The head reached the disk as `generation` and is performed (what the
    /// shell sends once the write of an accepted edit is durable).
    static func durable(_ host: inout HostState, generation: Int, reason: String = "setButton") {
        let head = host.live.head
        let info = SnapshotInfo(profile: head.profile, generation: generation, revision: head.revision,
                                time: Date(timeIntervalSince1970: 1000), reason: reason, source: head.source, bytes: 100)
        _ = host.handle(.committed(head, written: info))
    }

    /// What a scan the watcher asked for (a settled save) produced, finished
    /// with `catalog`, without the settings check every applied scan asks for.
    static func saved(_ host: inout HostState, _ catalog: ProfileCatalog) throws -> [HostAction] {
        let job = try HostRulesReloadTests.scan(host.handle(.profilesChanged))
        return HostRulesReloadTests.finished(&host, job, catalog)
    }

    /// The one commit among `actions` (nil when there is none or several).
    static func onlyCommit(_ actions: [HostAction]) -> Commit? {
        let commits = actions.compactMap { action -> Commit? in if case .commit(let commit) = action { commit } else { nil } }
        return commits.count == 1 ? commits[0] : nil
    }
}
