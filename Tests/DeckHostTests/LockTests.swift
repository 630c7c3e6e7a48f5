import DeckModel
import DeckProtocol
import DeckTestSupport
import Foundation
import Testing

@Suite("The lock gate end to end")
struct LockTests {
    /// A host locked by a control client, and two devices that saw the `lock` broadcast.
    static func lockedHostWithTwoDevices() throws -> (HostProcess, HostClient, HostClient, HostClient) {
        let host = try startedHost()
        let a = try host.device("a")
        let b = try host.device("b")
        let control = try host.controlClient()
        #expect(try control.expectOK(.lock) == nil)
        for client in [a, b] {
            guard case .lock(true) = try client.next(where: isLock) else { throw HarnessError("no lock broadcast") }
        }
        return (host, a, b, control)
    }

    @Test func whileLockedEveryEditAndPressIsRefusedAndOnlyTheSenderGetsTheLayout() throws {
        let (host, a, b, control) = try Self.lockedHostWithTwoDevices()
        let terminal = try #require(a.welcomeLayout.button(page: 0, index: 1))
        let requests: [ClientRequest] = [
            .setButton(page: 0, index: 3, button: DeckButton(name: "X", action: .run(command: "true"))),
            .clearButton(page: 0, index: 1, expecting: nil),
            .moveButton(fromPage: 0, fromIndex: 1, toPage: 1, toIndex: 1, button: terminal),
            .press(page: 0, index: 1, button: nil, phase: .tap),
        ]
        for request in requests {
            try a.expectError(request, .locked)
            let (revision, layout) = try a.nextLayout()
            #expect(revision == a.welcome?.revision && layout == a.welcomeLayout)
        }
        // A broken line of a gated kind is `locked` too (HostRulesLockTests),
        // also when it is longer than the 4 KiB the host looks into again
        // for its type: only the sender gets the layout.
        try a.line.send(#"{"type":"setButton","id":"l","page":0,"index":3,"button":{"name":""# + String(repeating: "x", count: 5000)
            + #"","action":{}}}"#)
        guard case .error(.string("l"), .locked, _, _) = try a.next() else { Issue.record("a long broken edit is not locked"); return }
        #expect(try a.nextLayout().revision == a.welcome?.revision)
        #expect(b.staysQuiet())
        #expect(try a.request(.ping).type == "pong")
        // A new client sees the lock in its welcome.
        #expect(try host.device("c").welcome?.locked == true)
        #expect(try control.status().locked)
        #expect(try control.expectOK(.unlock) == nil)
        guard case .lock(false) = try b.next(where: isLock) else { Issue.record("no unlock broadcast"); return }
        #expect(try a.expectOK(.press(page: 0, index: 1, button: nil, phase: .tap)) == nil)
    }

    @Test func theLockProbeLocksAndUnlockCannotOverrideIt() throws {
        let host = try HostProcess(files: ["default.yaml": deskYAML])
        let flag = host.root.path + "/locked"
        try Data("false\n".utf8).write(to: URL(fileURLWithPath: flag))
        try host.start(extra: ["--lock-probe", "cat '\(flag)'", "--lock-probe-interval", "50"])
        let device = try host.device()
        let control = try host.controlClient()
        #expect(try control.expectOK(.subscribe) == nil)
        try Data("locked\n".utf8).write(to: URL(fileURLWithPath: flag))
        guard case .lock(true) = try device.next(where: isLock) else { Issue.record("no lock"); return }
        let event = try control.next { if case .event(.lock(true, .probe, nil)) = $0 { true } else { false } }
        #expect(event.type == "event")
        let reply = try control.request(.unlock)
        guard case .error(_, .locked, let message, _) = reply else { Issue.record("\(reply)"); return }
        #expect(message.contains("lock probe"))
        try Data("0\n".utf8).write(to: URL(fileURLWithPath: flag))
        guard case .lock(false) = try device.next(where: isLock) else { Issue.record("no unlock"); return }
    }

    /// A probe that hangs is killed after its 5 s; one that hangs when the
    /// host stops is killed then (its whole group), not left running after
    /// deckd has exited.
    @Test func aHungProbeDoesNotOutliveTheHost() throws {
        let host = try HostProcess(files: ["default.yaml": deskYAML])
        let flag = host.root.path + "/hang"
        let pidFile = host.root.path + "/probe.pid"
        let probe = "if [ -e '\(flag)' ]; then echo $$ > '\(pidFile).tmp' && mv '\(pidFile).tmp' '\(pidFile)'; exec sleep 300; fi; echo false"
        try host.start(extra: ["--lock-probe", probe, "--lock-probe-interval", "50"])
        _ = FileManager.default.createFile(atPath: flag, contents: nil)
        let deadline = ContinuousClock.now + .seconds(10)
        var pid: pid_t = 0
        while pid == 0, ContinuousClock.now < deadline {
            pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
            if pid == 0 { Thread.sleep(forTimeInterval: 0.01) }
        }
        try #require(pid > 0, "the probe never hung")
        defer { if kill(pid, 0) == 0 { kill(pid, SIGKILL) } }
        #expect(try host.stop() == 0)
        let gone = ContinuousClock.now + .seconds(5)
        while kill(pid, 0) == 0, ContinuousClock.now < gone { Thread.sleep(forTimeInterval: 0.01) }
        #expect(kill(pid, 0) != 0, "the hung probe \(pid) is still running after deckd stopped")
    }

    @Test func controlRequestsAreRefusedOnTCPAndTheControlKindIsClosed() throws {
        let host = try startedHost()
        let device = try host.device()
        for request in [ClientRequest.status, .lock, .reload, .pair(name: "x"), .subscribe, .export(profile: nil)] {
            try device.expectError(request, .unauthorized)
        }
        #expect(try device.request(.ping).type == "pong")
        let intruder = try host.rawDevice()
        #expect(throws: HarnessError.self) { try intruder.hello(name: "fake", kind: "control") }
        #expect(intruder.isClosed())
    }
}
