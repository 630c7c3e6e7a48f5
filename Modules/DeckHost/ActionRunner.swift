import DeckModel
import DeckProtocol

/// One press whose action runs off the event loop.
struct ActionRequest: Sendable, Equatable {
    /// Where the pressed button is.
    var page: Int
    var index: Int
    /// The button as it was when pressed.
    var button: DeckButton
    /// `tap`, `down` or `up`.
    var phase: PressPhase
    /// Who pressed it (nil: the host itself).
    var by: ClientInfo?
}

/// Runs the actions of pressed buttons off the event loop: the seam between
/// the host and whatever carries actions out.
///
/// The host decides what a press means (`page` and `profile` change host or
/// client state, so the loop handles them itself) and hands `run` and `open`
/// to a runner. Issue 9 extends this: a runner with bounded concurrency and a
/// queue, and a plugin runner behind the same protocol (`plugin` presses
/// with their phases), each started and stopped with the host.
protocol ActionRunner: Sendable {
    /// Starts `request`'s action and returns at once. `finished` is called
    /// exactly once, on any thread, with how the action ended (never after
    /// ``releaseAfterStop()``).
    func run(_ request: ActionRequest, finished: @escaping @Sendable (ActionOutcome) -> Void)

    /// The host is stopping: stop starting actions. Commands already running
    /// are not killed (docs/host.md: one that writes
    /// after the host is gone ends with SIGPIPE).
    func shutdown()

    /// The loop has stopped: let go of every `finished` not yet called (no
    /// end can reach the loop now), so a command still running keeps nothing
    /// of the host's allocated.
    func releaseAfterStop()
}
