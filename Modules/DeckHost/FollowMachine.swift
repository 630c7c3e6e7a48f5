/// The decisions of `follow` supervision (docs/faces.md §6), with no process,
/// pipe or timer of its own: inputs are the live layout's follows, a child's
/// exit, an output line, a timer and the host stopping; each returns what the
/// caller (``FollowRunner``) performs. Time is passed in (a monotonic
/// `Duration` since any fixed start), so tests drive it directly.
///
/// - Each follow runs as its own child. When it exits it is started again
///   after a backoff of 1 s doubling to 60 s; a run that lasted
///   ``Policy/stableAfter`` starts the backoff over.
/// - A command that exits within ``Policy/quickExit`` of its start
///   ``Policy/quickExitsForProblem`` times in a row is a problem in
///   `deckctl status` until a run of it lasts ``Policy/stableAfter``.
/// - A follow that is no longer wanted gets SIGTERM, and SIGKILL if it is
///   still there ``Policy/killGrace`` later; its lines are not used after.
struct FollowMachine {
    struct Policy: Sendable {
        var firstDelay: Duration = .seconds(1)
        var longestDelay: Duration = .seconds(60)
        var quickExit: Duration = .seconds(1)
        var quickExitsForProblem = 3
        var stableAfter: Duration = .seconds(10)
        var killGrace: Duration = .seconds(2)
        /// Distinct unknown lines logged per follow; after that one line says the rest are not.
        var loggedLines = 16
    }

    /// Numbers one follow's supervision (not one process: restarts keep it).
    typealias ID = Int

    enum Action: Equatable {
        /// Start the follow's command (`/bin/sh -c`); a failure to start comes back as ``exited(_:how:now:)``.
        case spawn(ID, FollowSpec)
        /// SIGTERM to the running child's process group.
        case terminate(ID)
        /// SIGKILL to it.
        case kill(ID)
        /// Call ``timerFired(_:now:)`` for it after this long.
        case wake(ID, after: Duration)
        /// The line drives the face of the follow's button.
        case face(FollowSpec, FollowLine)
        case log(LogLevel, String)
        /// ``problems`` changed.
        case problemsChanged
    }

    private enum Phase: Equatable {
        case running(since: Duration)
        case waiting(until: Duration)
        case stopping(killAt: Duration)
    }

    private struct Entry {
        let spec: FollowSpec
        var phase: Phase
        var delay: Duration
        var quickExits = 0
        var problem: String?
        var logged: Set<String> = []
        var isStopping: Bool { if case .stopping = phase { true } else { false } }
    }

    let policy: Policy
    private var entries: [ID: Entry] = [:]
    private var nextID = 1

    init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Follows that keep exiting at once, as sentences for `status`, in page and slot order.
    var problems: [String] {
        entries.values.filter { !$0.isStopping }.compactMap { entry in
            entry.problem.map { (entry.spec.page, entry.spec.index, $0) }
        }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// How many follows are wanted now (running or waiting to start again).
    var wanted: Int { entries.values.filter { !$0.isStopping }.count }

    /// True when no child is left to stop.
    var isIdle: Bool { entries.isEmpty }

    // MARK: Inputs

    /// The live layout's follows. With `restart` (the profile went live
    /// again: a reload of its file, a switch) every follow stops and starts
    /// anew; otherwise (an edit) a follow whose button, command and folder
    /// are unchanged keeps running, and only the others stop or start.
    mutating func apply(_ specs: [FollowSpec], restart: Bool, now: Duration) -> [Action] {
        let before = problems
        var actions: [Action] = []
        var kept = Set<FollowSpec>()
        for id in entries.keys.sorted() {
            guard let entry = entries[id], !entry.isStopping else { continue }
            if !restart, specs.contains(entry.spec), !kept.contains(entry.spec) {
                kept.insert(entry.spec)
                continue
            }
            actions += stop(id, now: now)
        }
        for spec in specs where !kept.contains(spec) {
            let id = nextID
            nextID += 1
            entries[id] = Entry(spec: spec, phase: .running(since: now), delay: policy.firstDelay)
            actions.append(.spawn(id, spec))
        }
        if problems != before { actions.append(.problemsChanged) }
        return actions
    }

    /// The host stops: every follow stops.
    mutating func stopAll(now: Duration) -> [Action] {
        apply([], restart: true, now: now)
    }

    /// A follow's child ended (`how`: "exited with status 1"), or could not be started.
    mutating func exited(_ id: ID, how: String, now: Duration) -> [Action] {
        guard var entry = entries[id] else { return [] }
        guard case .running(let since) = entry.phase else {
            if case .stopping = entry.phase { entries[id] = nil }
            return []
        }
        let ran = now - since
        var actions: [Action] = []
        if ran >= policy.stableAfter {
            entry.delay = policy.firstDelay
            entry.quickExits = 0
        }
        entry.quickExits = ran < policy.quickExit ? entry.quickExits + 1 : 0
        let delay = entry.delay
        entry.delay = min(entry.delay * 2, policy.longestDelay)
        entry.phase = .waiting(until: now + delay)
        let again = "starting it again in \(Self.seconds(delay))"
        if entry.quickExits >= policy.quickExitsForProblem {
            let problem = "follow of \(entry.spec.described) keeps exiting at once (\(how)); \(again)"
            if entry.problem == nil { actions.append(.problemsChanged) }
            entry.problem = problem
            actions.append(.log(.warning, problem))
        } else {
            actions.append(.log(.warning, "follow of \(entry.spec.described) \(how); \(again)"))
        }
        entries[id] = entry
        actions.append(.wake(id, after: delay))
        return actions
    }

    /// A timer asked for by ``Action/wake(_:after:)`` fired (a stale one does nothing).
    mutating func timerFired(_ id: ID, now: Duration) -> [Action] {
        guard var entry = entries[id] else { return [] }
        switch entry.phase {
        case .waiting(let until) where now >= until:
            entry.phase = .running(since: now)
            entries[id] = entry
            var actions: [Action] = [.spawn(id, entry.spec)]
            if entry.problem != nil { actions.append(.wake(id, after: policy.stableAfter)) }
            return actions
        case .running(let since) where entry.problem != nil && now - since >= policy.stableAfter:
            entry.problem = nil
            entries[id] = entry
            return [.problemsChanged, .log(.info, "follow of \(entry.spec.described) has been running for \(Self.seconds(policy.stableAfter)) now")]
        case .stopping(let killAt) where now >= killAt:
            return [.kill(id)]
        default:
            return []
        }
    }

    /// One output line of a follow's child (too long: `line` nil).
    mutating func line(_ id: ID, _ line: Substring?) -> [Action] {
        guard var entry = entries[id], case .running = entry.phase else { return [] }
        if let line, let said = FollowLine(line) { return [.face(entry.spec, said)] }
        let shown = line.map { String($0.prefix(200)) } ?? "(a line too long to read)"
        guard !entry.logged.contains(shown), entry.logged.count <= policy.loggedLines else { return [] }
        entry.logged.insert(shown)
        entries[id] = entry
        if entry.logged.count > policy.loggedLines {
            return [.log(.info, "follow of \(entry.spec.described) writes more lines that are not state, title, alert or ok; they are not logged")]
        }
        return [.log(.info, "follow of \(entry.spec.described) wrote a line that is not state ID, title TEXT, alert or ok, ignored: \(shown)")]
    }

    // MARK: Helpers

    private mutating func stop(_ id: ID, now: Duration) -> [Action] {
        guard var entry = entries[id] else { return [] }
        switch entry.phase {
        case .running:
            entry.phase = .stopping(killAt: now + policy.killGrace)
            entries[id] = entry
            return [.terminate(id), .wake(id, after: policy.killGrace)]
        case .waiting:
            entries[id] = nil
            return []
        case .stopping:
            return []
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds) s"
    }
}
