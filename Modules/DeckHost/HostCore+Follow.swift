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
}
