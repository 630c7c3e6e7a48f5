#if canImport(Glibc)
import Glibc
#endif

/// `watch`: subscribe, then one line per event until a signal or the host goes away.
extension Deckctl {
    @Sendable static func watch(_ run: Invocation) throws(DeckctlError) -> DeckctlExit {
        StopSignals.exitCleanly()
        let session = try ControlSession(socket: run.socket)
        _ = try session.request(.subscribe)
        var text = EventText(revision: session.welcome.revision, showsControlClients: run.parsed[C.everything])
        if !run.json {
            let welcome = session.welcome
            run.console.out(timestamp() + "watching profile '\(Label.clean(welcome.profile))' at revision \(welcome.revision), "
                            + (welcome.locked ? "locked" : "unlocked") + "; Ctrl-C stops")
        }
        while true {
            // A held-back layout waits only briefly for the event that may follow it.
            guard let line = try session.nextLine(within: text.pendingLayout == nil ? nil : heldLayoutWait) else {
                for output in text.flush() { run.console.out(timestamp() + output) }
                continue
            }
            if run.json {
                run.console.out(line.text)
            } else {
                for output in text.lines(for: line) { run.console.out(timestamp() + output) }
            }
        }
    }

    /// How long a layout line waits for an event reporting the same revision.
    static let heldLayoutWait = Duration.milliseconds(250)

    /// `16:40:00 `: the local time, at the start of each watch line.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return "" }
        let two = { (value: Int32) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) "
    }
}
