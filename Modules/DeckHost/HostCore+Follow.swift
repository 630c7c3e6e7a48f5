import DeckModel
import DeckProtocol
import Glibc

extension HostCore {
    /// Starts the live layout's `follow` commands (docs/faces.md §6).
    func startFollows() {
        let home = getenv("HOME").map { String(cString: $0) }
        let runner = FollowRunner(loop: loop, home: home, events: .init(
            face: { [weak self] spec, line in self?.followSaid(spec, line) },
            log: { [weak self] level, message in self?.services.logger.log(level, message) }))
        inputs.follows = runner
        runner.layoutChanged(live.committed.layout, restart: true)
    }

    /// The committed state moved from `old` to `new`: follows start again
    /// when the profile went live again (another profile, or its file
    /// reloaded: a new `source`); after an edit only the follows whose
    /// button changed stop or start.
    func followsCommitted(from old: LiveState, to new: LiveState) {
        inputs.follows?.layoutChanged(new.layout, restart: old.profile != new.profile || old.source != new.source)
    }

    /// Follows that keep exiting at once, as `status` problems of the live
    /// profile's file (line and column 0: the problem is the running
    /// command, not a place in the file).
    var followProblems: [Problem] {
        let file = live.committed.source?.file ?? "profile '\(live.committed.profile)'"
        return (inputs.follows?.problems ?? []).map { Problem(file: file, line: 0, column: 0, message: $0) }
    }

    /// A follow's line for its button's face (the face table decides; an
    /// unknown state id is refused there with a log line).
    func followSaid(_ spec: FollowSpec, _ line: FollowLine) {
        let change: FaceChange = switch line {
        case .state(let id): .state(id)
        case .title(let title): .title(title)
        case .alert: .flash(.alert)
        case .ok: .flash(.ok)
        }
        feedFaces(.change(DeckSlot(page: spec.page, index: spec.index), [change], from: .follow(spec.command)))
    }
}
