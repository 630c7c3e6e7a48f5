import DeckModel
import DeckProfiles
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

let streamYAML = """
    name: streaming
    pages:
      - buttons:
          0: {name: Scene, action: {run: "true"}}
          1: {name: Back, action: {profile: default}}
    """

@Suite("Profiles end to end: live reload, switching, export")
struct ProfileTests {
    @Test func aSavedFileReloadsLiveAndABrokenSaveKeepsTheLiveLayout() throws {
        let host = try startedHost()
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 8, button: terminal))
        _ = try device.nextLayout()
        try host.write("default.yaml", deskYAML.replacingOccurrences(of: "name: Build", with: "name: Compile"))
        let (revision, layout) = try device.nextLayout(timeout: .seconds(5))
        #expect(layout.button(page: 0, index: 2)?.name == "Compile")
        // The move touched slots the save did not: it is rebased onto the new file (PROFILE.md §5).
        #expect(layout.button(page: 0, index: 8) == terminal)
        #expect(layout.button(page: 0, index: 1) == nil)
        try host.write("default.yaml", "pages:\n  - buttons:\n      0: {nmae: Oops, action: {run: x}}\n")
        #expect(host.waitForLog("unknown key 'nmae'"))
        let control = try host.controlClient()
        let status = try control.status()
        #expect(status.revision == revision)
        #expect(status.problems.contains { $0.file == "default.yaml" && $0.line == 3 && $0.message.contains("nmae") })
        let reply = try control.request(.reload)
        guard case .error(_, .invalid, _, let problems) = reply else { Issue.record("\(reply)"); return }
        #expect(problems.first?.line == 3)
        #expect(try host.device().welcomeLayout == layout)
    }

    /// PROFILE.md §5: the host watches the layouts folder — also after the
    /// folder itself was replaced (removed and made again, or a new folder
    /// renamed into its place, as checkout and sync tools do).
    @Test func aReplacedLayoutsFolderIsWatchedAgain() throws {
        let host = try startedHost()
        let device = try host.device()
        let files = FileManager.default
        try files.removeItem(atPath: host.layouts)
        #expect(host.waitForLog("was moved or removed"))
        try files.createDirectory(atPath: host.layouts, withIntermediateDirectories: false)
        try host.write("default.yaml", deskYAML.replacingOccurrences(of: "name: Build", with: "name: Again"))
        #expect(try device.nextLayout(timeout: .seconds(5)).layout.button(page: 0, index: 2)?.name == "Again")
        try host.write("default.yaml", deskYAML.replacingOccurrences(of: "name: Build", with: "name: Saved"))
        #expect(try device.nextLayout(timeout: .seconds(5)).layout.button(page: 0, index: 2)?.name == "Saved")
        // A new folder renamed into place; saves in the old one no longer count.
        let fresh = host.root.path + "/fresh"
        try files.createDirectory(atPath: fresh, withIntermediateDirectories: false)
        try Data(deskYAML.replacingOccurrences(of: "name: Build", with: "name: Fresh").utf8)
            .write(to: URL(fileURLWithPath: fresh + "/default.yaml"))
        try files.moveItem(atPath: host.layouts, toPath: host.root.path + "/old")
        try files.moveItem(atPath: fresh, toPath: host.layouts)
        #expect(try device.nextLayout(timeout: .seconds(5)).layout.button(page: 0, index: 2)?.name == "Fresh")
        try host.write("default.yaml", deskYAML.replacingOccurrences(of: "name: Build", with: "name: Newest"))
        #expect(try device.nextLayout(timeout: .seconds(5)).layout.button(page: 0, index: 2)?.name == "Newest")
    }

    /// When the folder's parent goes too, nothing can be waited for; once
    /// the folder is back, `deckctl reload` (or SIGHUP) watches it again.
    @Test func aLayoutsFolderWhoseParentWentIsWatchedAgainAfterAReload() throws {
        let host = try HostProcess(files: [:])
        let parent = host.root.path + "/config"
        let layouts = parent + "/layouts"
        let files = FileManager.default
        func save(_ name: String) throws {
            try Data(deskYAML.replacingOccurrences(of: "name: Build", with: "name: \(name)").utf8)
                .write(to: URL(fileURLWithPath: layouts + "/default.yaml"))
        }
        try files.createDirectory(atPath: layouts, withIntermediateDirectories: true)
        try save("Build")
        try host.start(extra: ["--layouts", layouts])
        let device = try host.device()
        let control = try host.controlClient()
        try files.removeItem(atPath: parent)
        #expect(host.waitForLog("until it is back and `deckctl reload`"))
        try files.createDirectory(atPath: layouts, withIntermediateDirectories: true)
        try save("Back")
        #expect(try control.expectOK(.reload) != nil)
        #expect(try device.nextLayout(timeout: .seconds(5)).layout.button(page: 0, index: 2)?.name == "Back")
        try save("Saved")
        #expect(try device.nextLayout(timeout: .seconds(5)).layout.button(page: 0, index: 2)?.name == "Saved")
    }

    @Test func reloadOfAnUnchangedFileKeepsClientEditsAndSIGHUPReloads() throws {
        let host = try startedHost()
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        let edited = try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 8, button: terminal))
        let control = try host.controlClient()
        #expect(try control.expectOK(.reload) == edited)
        #expect(try host.device().welcomeLayout.button(page: 0, index: 8) == terminal)
        // A file changed behind the watcher's back (same size, new content) is picked up by SIGHUP too.
        try control.expectOK(.subscribe)
        try host.write("default.yaml", deskYAML.replacingOccurrences(of: "name: Build", with: "name: Bu1ld"))
        host.signal(SIGHUP)
        let event = try control.next(timeout: .seconds(5)) { if case .event(.reload(_, _?, [], _, _)) = $0 { true } else { false } }
        #expect(event.type == "event")
        #expect(host.waitForLog("SIGHUP: reloading"))
    }

    @Test func useProfileProfilesExportAndAProfileButton() throws {
        let host = try startedHost(["streaming.yaml": streamYAML])
        let device = try host.device()
        let control = try host.controlClient()
        let profiles = try control.request(.profiles)
        guard case .profiles(_, "default", let list) = profiles else { Issue.record("\(profiles)"); return }
        #expect(list.map(\.name) == ["default", "streaming"])
        #expect(list.first?.file == "default.yaml" && list.first?.buttons == 6)
        try control.expectError(.useProfile(name: "nope"), .notFound)
        let switched = try control.expectOK(.useProfile(name: "streaming"))
        let (revision, layout) = try device.nextLayout()
        #expect(revision == switched && layout.button(page: 0, index: 0)?.name == "Scene")
        let export = try control.request(.export(profile: "default"))
        guard case .export(_, "default", let yaml) = export else { Issue.record("\(export)"); return }
        #expect(try DeckProfile.parse(yaml, file: "default.yaml").layout.button(page: 0, index: 1)?.name == "Terminal")
        // A profile button switches back.
        try device.expectOK(.press(page: 0, index: 1, button: nil, phase: .tap))
        let (_, back) = try device.nextLayout()
        #expect(back.button(page: 0, index: 1)?.name == "Terminal")
        #expect(try control.status().profile == "default")
        try control.expectError(.export(profile: "ghost"), .notFound)
        try control.expectError(.snapshots(profile: "ghost"), .notFound)
    }

    /// `export` of a profile whose file is broken gives its newest snapshot
    /// (a way to repair the file); with no snapshot there is nothing to
    /// export, and the answer says what is wrong with the file — as
    /// `useProfile` does — not that no such profile exists.
    @Test func exportOfABrokenFileWithoutASnapshotIsInvalidWithItsProblems() throws {
        let host = try startedHost(["streaming.yaml": streamYAML, "other.yaml": "pages: [\n"])
        let control = try host.controlClient()
        let reply = try control.request(.export(profile: "other"))
        guard case let .error(_, .invalid, message, problems) = reply else { Issue.record("\(reply)"); return }
        #expect(message == "other.yaml has a problem; profile 'other' has no snapshot to export")
        #expect(problems.map(\.file) == ["other.yaml"])
        // Once live, a profile keeps a snapshot, which export gives when the file breaks.
        try control.expectOK(.useProfile(name: "streaming"))
        try control.expectOK(.useProfile(name: "default"))
        try host.write("streaming.yaml", "pages: [\n")
        try control.expectOK(.reload)
        guard case .export(_, "streaming", let yaml) = try control.request(.export(profile: "streaming")) else {
            Issue.record("no export of the snapshot"); return
        }
        #expect(yaml.contains("Scene"))
        try control.expectError(.export(profile: "ghost"), .notFound)
    }

    @Test func startupRulesAndExitCodes() throws {
        // Nothing servable: a broken file and no snapshot.
        let broken = try HostProcess(files: ["default.yaml": "pages: [\n"])
        #expect(try broken.runToExit() == 78)
        #expect(broken.log.contains("default.yaml"))
        // An explicit profile that does not exist.
        let missing = try HostProcess(files: ["default.yaml": deskYAML])
        #expect(try missing.runToExit(extra: ["--profile", "ghost"]) == 78)
        // Bad options.
        #expect(try missing.runToExit(extra: ["--keep", "0"]) == 2)
        // An empty folder serves an empty default layout.
        let empty = try HostProcess(files: [:])
        try empty.start()
        #expect(try empty.device().welcomeLayout == .empty())
        // The last live profile is resumed.
        let host = try startedHost(["streaming.yaml": streamYAML])
        try host.controlClient().expectOK(.useProfile(name: "streaming"))
        try host.stop()
        try host.start()
        #expect(try host.device().welcome?.profile == "streaming")
        // A broken file with a snapshot: the snapshot is served, the problems are in status.
        try host.stop()
        try host.write("streaming.yaml", "pages:\n  - buttons: {0: {name: X}}\n")
        try host.start()
        let resumed = try host.device()
        #expect(resumed.welcome?.profile == "streaming" && resumed.welcomeLayout.button(page: 0, index: 0)?.name == "Scene")
        let status = try host.controlClient().status()
        #expect(status.problems.contains { $0.file == "streaming.yaml" && $0.line == 2 })
        #expect(status.notices.contains { $0.contains("streaming") && $0.contains("problems") })
        // Fixed: the problems go; the notice, which stays for the run, says what was, not what is.
        try host.write("streaming.yaml", streamYAML)
        #expect(try host.controlClient().expectOK(.reload) != nil)
        let fixed = try host.controlClient().status()
        #expect(fixed.problems.isEmpty)
        #expect(fixed.notices.contains { $0.hasPrefix("the file of profile 'streaming' had problems when the profile was chosen") },
                "\(fixed.notices)")
    }
}

/// Issue 17 §4: a profile name two files give is said in the log. At a
/// save it is a rule (`HostRulesSavesTests.aNameASecondFileGivesIsLoggedOnTheFileThatLosesIt`);
/// at start the host's own scan says it.
@Suite("A shared profile name in the log")
struct SharedNameLogTests {
    @Test func aNameTwoFilesGiveIsLoggedAtStart() throws {
        let host = try startedHost(["streaming.yaml": streamYAML, "a-copy.yaml": streamYAML])
        #expect(host.waitForLog("profile name 'streaming' is already used by a-copy.yaml"))
    }
}
