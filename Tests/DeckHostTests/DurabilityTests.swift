import DeckModel
import DeckProtocol
import DeckSnapshots
import DeckTestSupport
import Foundation
import Synchronization
import Testing

@Suite("Durability: kill -9, corruption, restarts, disk failures")
struct DurabilityTests {
    @Test func killNineRightAfterOKKeepsExactlyThatLayoutAndRevision() throws {
        let host = try startedHost()
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        let revision = try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 4, button: terminal))
        try host.kill9()
        try host.start()
        let again = try host.device()
        #expect(again.welcome?.revision == revision, "\(host.log)")
        #expect(again.welcomeLayout.button(page: 1, index: 4) == terminal)
        #expect(again.welcomeLayout.button(page: 0, index: 1) == nil)
    }

    @Test func editsSurviveACleanRestartAndSIGTERMExitsZeroQuickly() throws {
        let host = try startedHost()
        let device = try host.device()
        let mail = DeckButton(name: "Mail", action: .open("mailto:a@b.c"))
        let revision = try device.expectOK(.setButton(page: 0, index: 7, button: mail))
        let started = ContinuousClock.now
        #expect(try host.stop() == 0)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(device.isClosed())
        try host.start()
        let again = try host.device()
        #expect(again.welcome?.revision == revision)
        #expect(again.welcomeLayout.button(page: 0, index: 7) == mail)
    }

    /// A host that moved Terminal twice (1 → 6 → 7) and stopped: the
    /// last move's revision, and the profile's snapshot folder.
    private func twoMovesThenStopped(_ arguments: [String] = []) throws -> (host: HostProcess, terminal: DeckButton, revision: Int, folder: String) {
        let host = try startedHost(arguments: arguments)
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 6, button: terminal))
        let revision = try #require(try device.expectOK(.moveButton(fromPage: 0, fromIndex: 6, toPage: 0, toIndex: 7, button: terminal)))
        try host.stop()
        return (host, terminal, revision, host.state + "/snapshots/default")
    }

    /// Without a journal, a damaged newest file falls back to the generation
    /// before; with one, the damaged file's own journal record stands for it
    /// (PROFILE.md §6: "the newest good one"), so the acknowledged edit
    /// stays. It was set aside with its file, and the next start found it
    /// again in the journal (an audit's finding).
    @Test(arguments: [true, false])
    func aCorruptNewestSnapshotFileIsSetAsideAndStatusSaysSo(journal: Bool) throws {
        let (host, terminal, newestRevision, folder) = try twoMovesThenStopped(journal ? [] : ["--no-journal"])
        let newest = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json.gz") }.max())
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + newest))
        bytes[bytes.count - 6] ^= 0xFF  // damage the gzip trailer's CRC
        try bytes.write(to: URL(fileURLWithPath: folder + "/" + newest))
        for start in 1...2 {
            try host.start()
            let again = try host.device()
            if journal {
                // The newest layout, from its record, at both starts (the first writes it again as a new generation).
                #expect(again.welcome?.revision == newestRevision + 1, "start \(start)")
                #expect(again.welcomeLayout.button(page: 0, index: 7) == terminal, "start \(start)")
            } else {
                // The layout of the generation before; the revision still only grows.
                #expect(again.welcome?.revision == newestRevision + 1)
                #expect(again.welcomeLayout.button(page: 0, index: 6) == terminal)
            }
            if start == 1 {
                let status = try host.controlClient().status()
                #expect(status.notices.contains { $0.contains("corrupt") && $0.contains(newest.prefix(10))
                    && $0.contains("its journal record stands for it") == journal }, "\(status.notices)")
                #expect(FileManager.default.fileExists(atPath: folder + "/" + newest + ".corrupt"))
            }
            try host.stop()
            if !journal { break }
        }
    }

    /// An old snapshot damaged hides no newer revision: the newest is
    /// resumed as it is (its revision, no new generation), and the damaged
    /// file is still set aside and reported.
    @Test func anOldDamagedSnapshotLeavesTheNewestResumedAsItIs() throws {
        let (host, terminal, last, folder) = try twoMovesThenStopped(["--no-journal"])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json.gz") }.sorted()
        let oldest = try #require(files.first)
        let newest = try #require(files.last)
        #expect(oldest != newest)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + oldest))
        bytes[0] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: folder + "/" + oldest))
        try host.start()
        let again = try host.device()
        #expect(again.welcome?.revision == last, "the newest generation's own revision")
        #expect(again.welcomeLayout.button(page: 0, index: 7) == terminal)
        #expect(FileManager.default.fileExists(atPath: folder + "/" + oldest + ".corrupt"))
        let notice = "snapshot default/\(oldest.prefix(10)) was corrupt"
        #expect(host.waitForLog(notice))
        let control = try host.controlClient()
        #expect(try control.status().notices.contains { $0.hasPrefix(notice) && $0.hasSuffix("resumed generation \(Int(newest.prefix(10))!)") })
        let listed = try control.request(.snapshots(profile: nil))
        guard case .snapshots(_, _, let list) = listed else { Issue.record("\(listed)"); return }
        #expect(list.first?.generation == Int(newest.prefix(10)) && list.first?.reason == "moveButton", "no new generation: \(list)")
    }

    /// A newest snapshot whose start is damaged is set aside while the
    /// revisions are scanned, before any file is read whole: the fallback is
    /// still a `restore` generation, and the log and `status` say so — for
    /// the whole run, however many notices come later.
    @Test func aNewestSnapshotWithADamagedStartFallsBackAndTheNoticeStaysInStatus() throws {
        // Each generation a file of its own, to damage 22 of them; JournalHostTests damage records.
        let host = try startedHost(arguments: ["--no-journal"])
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        let lost = try #require(try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 6, button: terminal)))
        try host.stop()
        let folder = host.state + "/snapshots/default"
        let newest = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json.gz") }.max())
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + newest))
        bytes[0] ^= 0xFF  // not gzip any more: even the header cannot be read
        try bytes.write(to: URL(fileURLWithPath: folder + "/" + newest))
        try host.start()
        let again = try host.device()
        // Its revision could not be read, and the revision goes on above it.
        #expect(again.welcome?.revision == lost + 1)
        #expect(again.welcomeLayout.button(page: 0, index: 1) == terminal)
        #expect(FileManager.default.fileExists(atPath: folder + "/" + newest + ".corrupt"))
        let notice = "snapshot default/\(newest.prefix(10)) was corrupt"
        #expect(host.waitForLog(notice))
        #expect(host.log.contains("resumed generation 1"))
        let control = try host.controlClient()
        let first = try control.status().notices
        #expect(first.contains { $0.hasPrefix(notice) && $0.hasSuffix("resumed generation 1") }, "\(first)")
        let listed = try control.request(.snapshots(profile: nil))
        guard case .snapshots(_, _, let list) = listed else { Issue.record("\(listed)"); return }
        #expect(list.first?.reason == "restore")
        // Later notices (here: generations damaged while deckd runs, found by
        // restore) never push the start-up one out of `status`.
        let mail = DeckButton(name: "Mail", action: .open("mailto:a@b.c"))
        for index in 0..<24 {
            try again.expectOK(.setButton(page: 0, index: 7, button: DeckButton(name: "Mail \(index)", action: mail.action)))
        }
        let history = try control.request(.snapshots(profile: nil))
        guard case .snapshots(_, _, let all) = history else { Issue.record("\(history)"); return }
        // `status` keeps the newest 20 later notices (docs/host.md); two more are noted.
        let generations = all.dropFirst().prefix(22).map(\.generation)
        for generation in generations {
            let path = folder + "/" + String(format: "%010d.json.gz", generation)
            var file = try Data(contentsOf: URL(fileURLWithPath: path))
            file[file.count - 6] ^= 0xFF
            try file.write(to: URL(fileURLWithPath: path))
            try control.expectError(.restore(generation: generation), .notFound)
        }
        let later = try control.status().notices
        #expect(later.contains { $0.hasPrefix(notice) }, "\(later)")
        #expect(later.count == 1 + 20)
        #expect(later.last?.contains(String(format: "%010d", try #require(generations.last))) == true)
    }

    /// PROFILE.md §5: a file changed while deckd was down rebases the edits
    /// (the move touched slots the save did not), as one `reload` generation.
    @Test func aChangedFileAtStartRebasesTheEditsAndTheOldLiveStateStaysRestorable() throws {
        let host = try startedHost()
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        try device.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 0, toIndex: 9, button: terminal))
        try host.stop()
        try host.write("default.yaml", deskYAML + "\n      4: {name: New, action: {run: \"true\"}}\n")
        try host.start()
        let again = try host.device()
        #expect(again.welcomeLayout.button(page: 1, index: 4)?.name == "New")
        #expect(again.welcomeLayout.button(page: 0, index: 9) == terminal)
        #expect(again.welcomeLayout.button(page: 0, index: 1) == nil)
        let control = try host.controlClient()
        let reply = try control.request(.snapshots(profile: nil))
        guard case .snapshots(_, "default", let list) = reply else { Issue.record("\(reply)"); return }
        #expect(list.first?.reason == "reload")
        let edited = try #require(list.first { $0.reason == "moveButton" })
        let restored = try control.expectOK(.restore(generation: edited.generation))
        let (revision, layout) = try again.nextLayout()
        #expect(revision == restored)
        #expect(layout.button(page: 0, index: 9) == terminal && layout.button(page: 1, index: 4) == nil)
        try control.expectError(.restore(generation: 9999), .notFound)
        // The restore is the live state of the file as it is now: it survives a restart.
        try host.stop()
        try host.start()
        #expect(try host.device().welcomeLayout.button(page: 0, index: 9) == terminal)
    }

    /// PROFILE.md §6: plain tools read the newest layout as a gzip file.
    /// Edits are journal records; once the journal has been quiet for a
    /// moment, deckd writes the newest generation as `GENERATION.json.gz`
    /// while it keeps running.
    @Test func aQuietJournalSoonHasItsNewestGenerationAsAPlainFile() throws {
        let host = try startedHost()
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        var revision = 0
        for (from, to) in [(1, 6), (6, 7), (7, 8)] {
            revision = try #require(try device.expectOK(.moveButton(fromPage: 0, fromIndex: from, toPage: 0, toIndex: to,
                                                                    button: terminal)))
        }
        let folder = host.state + "/snapshots/default"
        let deadline = ContinuousClock.now + .seconds(10)
        var newest: [String: Any] = [:]
        while ContinuousClock.now < deadline {
            newest = try newestPlainSnapshot(in: folder)
            if newest["revision"] as? Int == revision { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(newest["revision"] as? Int == revision && newest["reason"] as? String == "moveButton", "\(newest)")
        #expect(try host.stop() == 0)
    }

    /// PROFILE.md §6: a snapshot is written "before the edit is acknowledged".
    /// An edit that finds the disk quiet (a person's; one `deckctl` command
    /// after another) has its generation's file the moment its `ok` arrives,
    /// with no polling; only a burst's edits are records alone.
    @Test func anEditAfterAQuietMomentHasItsFileBeforeItsOK() throws {
        let host = try startedHost()
        let device = try host.device()
        let terminal = try #require(device.welcomeLayout.button(page: 0, index: 1))
        let folder = host.state + "/snapshots/default"
        for (from, to) in [(1, 6), (6, 7), (7, 8)] {
            // The premise is time itself: longer than DiskWorker.quietBeforeAFileFirst (2 ms) after a file without a write.
            Thread.sleep(forTimeInterval: 0.1)
            let revision = try #require(try device.expectOK(.moveButton(fromPage: 0, fromIndex: from, toPage: 0, toIndex: to,
                                                                        button: terminal)))
            let newest = try newestPlainSnapshot(in: folder)
            #expect(newest["revision"] as? Int == revision && newest["reason"] as? String == "moveButton", "\(newest)")
        }
        #expect(try host.stop() == 0)
    }

    /// The newest `GENERATION.json.gz` in `folder`, read as a plain tool
    /// would (`gzip -dc`); empty when there is none or it does not parse.
    private func newestPlainSnapshot(in folder: String) throws -> [String: Any] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json.gz") }.sorted()
        guard let last = files.last else { return [:] }
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        unzip.arguments = ["-dc", folder + "/" + last]
        let output = Pipe()
        unzip.standardOutput = output
        try unzip.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        unzip.waitUntilExit()
        return (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] ?? [:]
    }

    /// Retention deletes dropped generations in the background; a clean stop
    /// waits for those deletions (docs/snapshots.md, Retention), so it leaves
    /// `--keep` files however many the last write dropped.
    @Test func aCleanStopLeavesOnlyTheKeptGenerations() throws {
        let host = try startedHost(arguments: ["--keep", "2"])
        try host.stop()
        // Thousands of older generations, as files that survived crashes before their deletion.
        do {
            let store = try SnapshotStore(stateDirectory: host.state, keep: 1_000_000)
            let newest = try #require(try store.newest(profile: "default").snapshot)
            let older = (1...3000).map {
                SnapshotEntry(profile: "default", revision: newest.info.revision + $0, reason: "setButton",
                              source: newest.info.source, layout: newest.layout)
            }
            #expect(store.write(older).failure == nil)
        }
        try host.start()
        let device = try host.device()
        try device.expectOK(.setButton(page: 0, index: 7, button: DeckButton(name: "Mail", action: .open("mailto:a@b.c"))))
        // A generous bound: the stop waits for ~3,000 unlinks, which took 7.8 s on a disk shared by busy builds.
        #expect(try host.stop(timeout: .seconds(60)) == 0)
        // The generations are files here (the edit came before a journal segment was open); the empty segment is not one.
        let files = try FileManager.default.contentsOfDirectory(atPath: host.state + "/snapshots/default")
            .filter { !$0.hasSuffix(".journal") }
        #expect(files.count == 2, "\(files)")
    }

    @Test(.enabled(if: canMakeFolderUnwritable, "needs chattr +i (as root) or permission bits"))
    func aFailedSnapshotWriteRefusesTheEditAndChangesNothing() throws {
        let host = try startedHost()
        let a = try host.device("a")
        let b = try host.device("b")
        let folder = host.state + "/snapshots/default"
        let restore = try #require(try makeFolderUnwritable(folder))
        defer { restore() }
        let terminal = try #require(a.welcomeLayout.button(page: 0, index: 1))
        let reply = try a.request(.moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 1, button: terminal))
        guard case .error(_, .internal, let message, _) = reply else { Issue.record("\(reply)"); return }
        #expect(message.contains("nothing changed"))
        let (revision, layout) = try b.nextLayout()
        #expect(revision == b.welcome?.revision && layout == b.welcomeLayout)
        restore()
        // The host keeps working once the disk does.
        #expect(try a.expectOK(.moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 1, button: terminal)) == (b.welcome?.revision ?? 0) + 1)
    }
}

/// Makes a folder refuse new files (chattr +i as root, mode 0555 otherwise); nil when impossible here.
func makeFolderUnwritable(_ folder: String) throws -> (() -> Void)? {
    if geteuid() != 0 {
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        return { _ = try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder) }
    }
    func chattr(_ flag: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, folder]
        guard (try? process.run()) != nil else { return false }
        process.reap()
        return process.terminationStatus == 0
    }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"), chattr("+i") else { return nil }
    let done = Mutex(false)
    return { if !done.withLock({ let was = $0; $0 = true; return was }) { _ = chattr("-i") } }
}

let canMakeFolderUnwritable: Bool = {
    guard let probe = try? TemporaryDirectory(prefix: "probe"), let restore = try? makeFolderUnwritable(probe.path) else { return false }
    defer { restore() }
    return !FileManager.default.createFile(atPath: probe.path + "/x", contents: Data())
}()
