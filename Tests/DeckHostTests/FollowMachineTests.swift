import DeckModel
import Testing
@testable import DeckHost

/// `follow` supervision (docs/faces.md §6) driven directly: no process, no
/// timer, time passed in.
@Suite("Follow supervision state machine")
struct FollowMachineTests {
    static let mic = FollowSpec(page: 0, index: 2, name: "Mic", command: "mic-watch", cwd: nil)
    static let rec = FollowSpec(page: 1, index: 0, name: "Rec", command: "obs-watch", cwd: "~")

    static func spawned(_ actions: [FollowMachine.Action]) -> [FollowMachine.ID] {
        actions.compactMap { if case .spawn(let id, _) = $0 { id } else { nil } }
    }

    static func wakes(_ actions: [FollowMachine.Action]) -> [Duration] {
        actions.compactMap { if case .wake(_, let after) = $0 { after } else { nil } }
    }

    @Test("the layout's follows start when it goes live; each line drives the face; other lines are logged once each")
    func startsAndReads() throws {
        var machine = FollowMachine()
        let actions = machine.apply([Self.mic, Self.rec], restart: true, now: .zero)
        #expect(actions == [.spawn(1, Self.mic), .spawn(2, Self.rec)])
        #expect(machine.line(1, "state muted") == [.face(Self.mic, .state("muted"))])
        #expect(machine.line(1, "  title -12 dB\r") == [.face(Self.mic, .title("-12 dB"))])
        #expect(machine.line(1, "title") == [.face(Self.mic, .title(nil))])
        #expect(machine.line(2, "alert") == [.face(Self.rec, .alert)])
        #expect(machine.line(2, "ok") == [.face(Self.rec, .ok)])
        let junk = machine.line(1, "hello")
        #expect(junk.count == 1)
        guard case .log(.info, let said) = junk.first else { Issue.record("no log: \(junk)"); return }
        #expect(said.contains("'Mic' at 0/2") && said.contains("hello"))
        #expect(machine.line(1, "hello").isEmpty, "the same line is logged once")
        #expect(machine.line(1, "state").count == 1, "state needs an id")
        #expect(machine.line(1, "ok now").count == 1, "ok takes nothing after it")
        #expect(machine.line(1, nil).count == 1, "a line too long is logged")
        #expect(machine.line(9, "ok").isEmpty, "an unknown follow")
    }

    @Test("unknown lines: a bounded number are logged, then one line says the rest are not")
    func unknownLinesBounded() {
        var policy = FollowMachine.Policy()
        policy.loggedLines = 3
        var machine = FollowMachine(policy: policy)
        _ = machine.apply([Self.mic], restart: true, now: .zero)
        let logs = (0..<10).map { machine.line(1, Substring("noise \($0)")).count }
        #expect(logs == [1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    }

    @Test("a follow that exits is started again after 1 s doubling to 60 s; a long run starts the backoff over")
    func backoff() {
        var machine = FollowMachine()
        _ = machine.apply([Self.mic], restart: true, now: .zero)
        var now = Duration.seconds(5)
        var delays: [Duration] = []
        for _ in 0..<9 {
            let exit = machine.exited(1, how: "exited with status 1", now: now)
            delays += Self.wakes(exit)
            #expect(machine.timerFired(1, now: now + .milliseconds(500)).isEmpty, "not before its time")
            now += Self.wakes(exit).first ?? .zero
            #expect(Self.spawned(machine.timerFired(1, now: now)) == [1])
            now += .seconds(2)
        }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        now += .seconds(10)
        #expect(Self.wakes(machine.exited(1, how: "exited with status 0", now: now)) == [.seconds(1)])
    }

    @Test("a command that keeps exiting at once is a problem until a run of it lasts")
    func quickExitsAreAProblem() {
        var machine = FollowMachine()
        _ = machine.apply([Self.mic, Self.rec], restart: true, now: .zero)
        var now = Duration.zero
        for round in 1...3 {
            let exit = machine.exited(1, how: "exited with status 127", now: now + .milliseconds(20))
            #expect(exit.contains(.problemsChanged) == (round == 3))
            now += .milliseconds(20) + (Self.wakes(exit).first ?? .zero)
            let again = machine.timerFired(1, now: now)
            #expect(Self.spawned(again) == [1])
            if round == 3 { #expect(Self.wakes(again) == [.seconds(10)], "a wake to clear the problem once it lasts") }
        }
        #expect(machine.problems.count == 1)
        #expect(machine.problems.first?.contains("'Mic' at 0/2 keeps exiting at once (exited with status 127)") == true)
        #expect(machine.timerFired(1, now: now + .seconds(5)).isEmpty)
        let lasted = machine.timerFired(1, now: now + .seconds(10))
        #expect(lasted.first == .problemsChanged)
        #expect(machine.problems.isEmpty)
    }

    @Test("a reload or switch stops every follow (SIGTERM, SIGKILL 2 s later) and starts them anew")
    func restartOnReload() {
        var machine = FollowMachine()
        _ = machine.apply([Self.mic, Self.rec], restart: true, now: .zero)
        let reload = machine.apply([Self.mic], restart: true, now: .seconds(3))
        #expect(reload == [.terminate(1), .wake(1, after: .seconds(2)), .terminate(2), .wake(2, after: .seconds(2)), .spawn(3, Self.mic)])
        #expect(machine.line(1, "ok").isEmpty, "a stopping follow's lines are not used")
        #expect(machine.timerFired(1, now: .seconds(4)).isEmpty)
        #expect(machine.timerFired(1, now: .seconds(5)) == [.kill(1)])
        #expect(machine.exited(1, how: "was ended by signal 9", now: .seconds(5)).isEmpty, "no restart for a stopped follow")
        #expect(machine.exited(2, how: "was ended by signal 15", now: .seconds(4)).isEmpty)
        #expect(machine.timerFired(2, now: .seconds(5)).isEmpty, "gone before its kill")
        #expect(machine.wanted == 1)
    }

    @Test("an edit keeps the follows whose button is unchanged and stops or starts the others")
    func editKeepsUnchanged() {
        var machine = FollowMachine()
        _ = machine.apply([Self.mic, Self.rec], restart: true, now: .zero)
        var moved = Self.rec
        moved.index = 5
        #expect(machine.apply([Self.mic, moved], restart: false, now: .seconds(1)) == [.terminate(2), .wake(2, after: .seconds(2)), .spawn(3, moved)])
        #expect(machine.apply([Self.mic, moved], restart: false, now: .seconds(2)).isEmpty)
    }

    @Test("a follow waiting to start again is simply dropped; the host stopping stops the rest; its problem goes")
    func stopAll() {
        var machine = FollowMachine()
        _ = machine.apply([Self.mic, Self.rec], restart: true, now: .zero)
        var now = Duration.zero
        for _ in 0..<3 {
            let exit = machine.exited(1, how: "exited with status 2", now: now + .milliseconds(1))
            now += .milliseconds(1) + (Self.wakes(exit).first ?? .zero)
            _ = machine.timerFired(1, now: now)
        }
        _ = machine.exited(1, how: "exited with status 2", now: now + .seconds(2))
        #expect(machine.problems.count == 1, "waiting, still a problem")
        let stop = machine.stopAll(now: .seconds(31))
        #expect(stop == [.terminate(2), .wake(2, after: .seconds(2)), .problemsChanged])
        #expect(machine.problems.isEmpty)
        #expect(machine.timerFired(1, now: .seconds(100)).isEmpty, "its restart timer finds nothing")
        #expect(!machine.isIdle)
        _ = machine.exited(2, how: "was ended by signal 15", now: .seconds(32))
        #expect(machine.isIdle)
    }

    @Test("a command that cannot start counts as an exit at once")
    func spawnFailure() {
        var machine = FollowMachine()
        _ = machine.apply([Self.mic], restart: true, now: .zero)
        let failed = machine.exited(1, how: "could not be started (no such folder)", now: .zero)
        #expect(Self.wakes(failed) == [.seconds(1)])
    }

    @Test("follow lines", arguments: [
        ("state on", FollowLine.state("on")), ("state  on", nil), ("state a b", nil), ("title", .title(nil)),
        ("title  two  words ", .title(" two  words")), ("alert", .alert), ("ok", .ok), ("OK", nil), ("", nil),
        ("\tok\t", .ok), ("states x", nil),
    ] as [(String, FollowLine?)])
    func lines(_ text: String, _ expected: FollowLine?) {
        #expect(FollowLine(Substring(text)) == expected)
    }

    @Test("the follows of a layout, in page and slot order, only on run actions")
    func specsOfLayout() throws {
        let layout = try DeckLayout(slotsPerPage: 2, pages: [
            DeckPage(buttons: [DeckButton(name: "A", action: .run(command: "a", follow: "watch-a")),
                               DeckButton(name: "B", action: .run(command: "b"))]),
            DeckPage(buttons: [nil, DeckButton(name: "C", action: .run(command: "c", cwd: "/tmp", follow: "watch-c"))]),
        ])
        #expect(FollowSpec.all(in: layout) == [
            FollowSpec(page: 0, index: 0, name: "A", command: "watch-a", cwd: nil),
            FollowSpec(page: 1, index: 1, name: "C", command: "watch-c", cwd: "/tmp"),
        ])
    }
}
