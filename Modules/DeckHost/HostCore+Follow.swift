import DeckModel
import DeckProtocol
import Glibc

extension HostCore {
    /// Starts the live layout's `follow` commands (docs/faces.md §6).
    func startFollows() {
        let home = getenv("HOME").map { String(cString: $0) }
        let runner = FollowRunner(loop: loop, home: home, inbox: inbox)
        inputs.follows = runner
        handle(.follow(.started))
    }

    /// Follows that keep exiting at once, as `status` problems of the live
    /// profile's file (line and column 0: the problem is the running
    /// command, not a place in the file).
    var followProblems: [Problem] {
        let file = live.committed.source?.file ?? "profile '\(live.committed.profile)'"
        return state.follows.problems.map { Problem(file: file, line: 0, column: 0, message: $0) }
    }
}
