import DeckModel

extension HostState {
    /// The follows' clock: time since the host's rules were made (monotonic,
    /// from the injected environment, so tests drive it).
    var followClock: Duration { environment.instantNow() - started }

    /// The follow commands' inputs (docs/faces.md §6): the machine decides,
    /// the `FollowRunner` performs its processes and timers.
    mutating func follow(_ input: FollowInput) -> [HostAction] {
        let now = followClock
        switch input {
        case .started:
            followsRunning = true
            _ = followPages.update(live.committed.layout, read: FollowSpec.all(on:number:))
            return followActions(follows.apply(followPages.all, restart: true, now: now))
        case let .exited(id, how):
            return followActions(follows.exited(id, how: how, now: now))
        case .timer(let id):
            return followActions(follows.timerFired(id, now: now))
        case let .line(id, line):
            return followActions(follows.line(id, line.map { Substring($0) }))
        }
    }

    /// The follows follow a newly committed layout (all of them again when
    /// `restart`); nothing before the runner started.
    mutating func followsFollow(_ layout: DeckLayout, restart: Bool) -> [HostAction] {
        guard followsRunning else { return [] }
        // No page read again: the same commands at the same places, which `apply` would leave running.
        guard followPages.update(layout, read: FollowSpec.all(on:number:)).pagesChanged || restart else { return [] }
        return followActions(follows.apply(followPages.all, restart: restart, now: followClock))
    }

    /// The host stops: every follow gets SIGTERM (the loop's end kills what is left).
    mutating func stopFollows() -> [HostAction] {
        guard followsRunning else { return [] }
        return followActions(follows.stopAll(now: followClock))
    }

    /// The machine's actions as the host's: a line drives its button's face
    /// here, a log line is a `.log`, the rest is the runner's.
    private mutating func followActions(_ actions: [FollowMachine.Action]) -> [HostAction] {
        var result: [HostAction] = []
        for action in actions {
            switch action {
            case let .face(spec, line): result += followSaid(spec, line)
            case let .log(level, message): result.append(.log(level, message))
            case .problemsChanged: break  // `status` reads `follows.problems` when asked
            case .spawn, .terminate, .kill, .wake: result.append(.follow(action))
            }
        }
        return result
    }
}

/// What the `FollowRunner` saw of a follow command.
enum FollowInput: Equatable {
    /// The runner exists: the live layout's follows start.
    case started
    /// A follow's child ended (`how`: "exited with status 1"), or could not be started.
    case exited(FollowMachine.ID, how: String)
    /// A timer the machine asked for (``FollowMachine/Action/wake(_:after:)``) fired.
    case timer(FollowMachine.ID)
    /// One line of its output (nil: a line over the limit).
    case line(FollowMachine.ID, String?)
}
