import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

/// PROFILE.md §5: saving a file reloads its profile. Each way an editor
/// saves (``EditorSave``) is done to a real deckd's layouts folder, and the
/// live layout — the device's broadcasts, a new device's welcome and
/// `status` — must be the last save's, whatever inode the file ends up on.
@Suite("Every way an editor saves goes live")
struct EditorSaveTests {
    /// `deskYAML` with slot 0/2 named `name`.
    static func desk(_ name: String) -> String {
        deskYAML.replacingOccurrences(of: "name: Build", with: "name: \(name)")
    }

    @Test(arguments: EditorSave.allCases)
    func everySaveGoesLiveAndTheWatchFollowsTheReplacedFile(_ style: EditorSave) throws {
        let host = try startedHost()
        let device = try host.device()
        // Three saves, each waited for: the second and third find the file
        // on the inode the one before left (renamed over, recreated).
        for round in 1...3 {
            try style.save(Self.desk("Save\(round)"), as: "default.yaml", in: host.layouts)
            let seen = try device.layouts(until: "Save\(round)")
            #expect(seen.last?.button(page: 0, index: 2)?.name == "Save\(round)")
        }
        try host.expectSettled(device, on: "Save3")
    }

    @Test(arguments: EditorSave.allCases)
    func theLastOfSavesInQuickSuccessionWins(_ style: EditorSave) throws {
        let host = try startedHost()
        let device = try host.device()
        // No wait between them: they fall in one settle time, or across
        // one, or while a scan of an earlier one is reading.
        for round in 1...8 {
            try style.save(Self.desk("Quick\(round)"), as: "default.yaml", in: host.layouts)
        }
        let seen = try device.layouts(until: "Quick8")
        // Revisions only go forward, and no earlier save follows a later one.
        let rounds = seen.compactMap { $0.button(page: 0, index: 2)?.name.dropFirst("Quick".count) }.compactMap { Int($0) }
        #expect(rounds == rounds.sorted())
        try host.expectSettled(device, on: "Quick8")
    }

    /// Each save lands while the scan of the one before is reading it (the
    /// next save is made as soon as a scan has the file's bytes): every scan
    /// is overtaken, and still the last save is what stays live.
    @Test(arguments: [EditorSave.truncateAndWrite, .hiddenTempRenamedOver, .vimBackupRename])
    func savesThatOvertakeEachScanEndOnTheLast(_ style: EditorSave) throws {
        let host = try startedHost(arguments: ["--log-level", "debug"])
        let device = try host.device()
        // Some thousands of ignored keys: a scan parses for a while.
        let bulk = "x-bulk:\n" + (0..<20_000).map { "  k\($0): \($0)\n" }.joined()
        let parses = "parses default.yaml"
        for round in 1...6 {
            let before = host.occurrences(of: parses)
            try style.save(Self.desk("Overtaking\(round)") + "\n" + bulk, as: "default.yaml", in: host.layouts)
            #expect(host.waitForLog(parses, moreThan: before), "round \(round)")
        }
        let seen = try device.layouts(until: "Overtaking6")
        let rounds = seen.compactMap { $0.button(page: 0, index: 2)?.name.dropFirst("Overtaking".count) }.compactMap { Int($0) }
        #expect(rounds == rounds.sorted())
        try host.expectSettled(device, on: "Overtaking6")
    }

    /// A profile written in pieces is read once it is closed. Saved as vim
    /// does (the old file renamed away, a new one written), the scan came
    /// 150 ms after the rename and read what was written so far: cut after
    /// its first page it is valid YAML and a profile of its own, which went
    /// live (and a rebase onto it would drop device edits on the other pages).
    @Test func aFileStillBeingWrittenIsReadOnceClosed() throws {
        let host = try startedHost(arguments: ["--log-level", "debug"])
        let device = try host.device()
        let text = Self.desk("Slow")
        let full = Array(text.utf8)
        let second = try #require(text.range(of: "  - buttons:\n      0: {name: Lock")?.lowerBound)
        let cut = text[..<second].utf8.count
        let path = host.layouts + "/default.yaml"
        #expect(rename(path, path + "~") == 0)
        let fd = try EditorSave.open(path, O_WRONLY | O_CREAT | O_TRUNC)
        try EditorSave.write(fd, full[..<cut])
        let waited = host.waitForLog("is scanned once default.yaml (still being written) is closed")
        try EditorSave.write(fd, full[cut...])
        close(fd)
        #expect(waited)
        let seen = try device.layouts(until: "Slow")
        #expect(seen.count == 1 && seen.last?.button(page: 1, index: 3)?.name == "Mail", "\(seen)")
        try host.expectSettled(device, on: "Slow")
    }

    /// Editors' swap, backup, lock and temporary files, holding what a
    /// profile file would (its name too), are not profiles: the folder has
    /// one profile and no problem, and the saved file is live.
    @Test func editorsFilesBesideAProfileAreNotProfiles() throws {
        let host = try startedHost()
        let device = try host.device()
        for name in EditorSave.leftovers {
            try host.write(name, Self.desk("Leftover"))
        }
        try EditorSave.truncateAndWrite.save(Self.desk("Saved"), as: "default.yaml", in: host.layouts)
        _ = try device.layouts(until: "Saved")
        try host.expectSettled(device, on: "Saved")
    }
}

extension HostClient {
    /// The layout broadcasts up to and including the first whose slot 0/2
    /// is named `name` (the others read on the way stay in the backlog).
    func layouts(until name: String, timeout: Duration = .seconds(30)) throws -> [DeckLayout] {
        var seen: [DeckLayout] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            let (_, layout) = try nextLayout(timeout: deadline - .now)
            seen.append(layout)
            if layout.button(page: 0, index: 2)?.name == name { return seen }
        }
    }
}

extension HostProcess {
    /// How many times `text` is in the log.
    func occurrences(of text: String) -> Int { log.components(separatedBy: text).count - 1 }

    /// Waits until `text` is in the log more than `count` times.
    func waitForLog(_ text: String, moreThan count: Int, timeout: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if occurrences(of: text) > count { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return false
    }

    /// Once `name` is live: an answered reload reads the folder after every
    /// save and is answered after every scan before it was applied; then the
    /// device has been sent everything (a ping's pong comes after it), and
    /// nothing after `name` took it back. A new device, `status` and the
    /// folder's profiles agree: one profile, no problem, `name` live.
    func expectSettled(_ device: HostClient, on name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let control = try controlClient()
        try control.expectOK(.reload, sourceLocation: sourceLocation)
        let pong = try device.request(.ping)
        guard case .pong = pong else {
            Issue.record("ping answered with \(pong)", sourceLocation: sourceLocation)
            return
        }
        let later = device.backlog.compactMap { message -> DeckLayout? in
            if case .layout(_, _, let layout, _, _) = message { layout } else { nil }
        }
        #expect(later.allSatisfy { $0.button(page: 0, index: 2)?.name == name }, "\(later)", sourceLocation: sourceLocation)
        let status = try control.status()
        #expect(status.problems.isEmpty, "\(status.problems)", sourceLocation: sourceLocation)
        #expect(status.profiles == ["default"], sourceLocation: sourceLocation)
        let welcome = try self.device().welcomeLayout
        #expect(welcome.button(page: 0, index: 2)?.name == name, sourceLocation: sourceLocation)
        #expect(welcome.button(page: 1, index: 3)?.name == "Mail", sourceLocation: sourceLocation)
    }
}
